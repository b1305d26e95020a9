//go:build unix

package gitindex

import "syscall"

const oNonblock = syscall.O_NONBLOCK
