//go:build unix

package gitrest

import "syscall"

// nonblock keeps an open of a fifo planted in the git dir from waiting
// for a writer.
const nonblock = syscall.O_NONBLOCK
