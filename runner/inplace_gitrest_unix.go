//go:build unix

package runner

import "syscall"

// syscallNonblock keeps an open of a fifo planted in the git dir from
// waiting for a writer.
const syscallNonblock = syscall.O_NONBLOCK
