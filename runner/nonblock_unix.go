//go:build unix

package runner

import "syscall"

// oNonblock keeps an open of a fifo from waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
