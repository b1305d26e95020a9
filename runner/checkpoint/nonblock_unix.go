//go:build unix

package checkpoint

import "syscall"

// nonblock keeps a fifo swapped in for a file from blocking its read.
const nonblock = syscall.O_NONBLOCK
