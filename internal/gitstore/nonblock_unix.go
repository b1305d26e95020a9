//go:build unix

package gitstore

import "syscall"

const oNonblock = syscall.O_NONBLOCK
