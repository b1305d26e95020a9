//go:build unix

package policy

import (
	"os"
	"syscall"
)

// openScriptHead opens p to read its first line: never through a link at
// its last element, and without blocking on a FIFO put there since it was
// looked at.
func openScriptHead(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
