//go:build unix && !linux

package gitdir

import "golang.org/x/sys/unix"

// walkFlag opens the directories on the way to an entry (no O_PATH here).
const walkFlag = unix.O_RDONLY

// chmodFd sets the mode of the file fd.
func chmodFd(fd int, mode uint32) error { return unix.Fchmod(fd, mode) }
