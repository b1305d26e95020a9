//go:build unix

package runlater

import "syscall"

// oNonblock keeps an open of a fifo from waiting for a writer: the place
// is the coder's to write, and a Makefile it swapped for a fifo hung the
// reader for good (31-ipatk16m: every later sentinel mcp writing call
// waited behind it).
const oNonblock = syscall.O_NONBLOCK
