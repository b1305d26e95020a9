package gitdir

import (
	"strconv"

	"golang.org/x/sys/unix"
)

// walkFlag opens the directories on the way to an entry: O_PATH needs
// only search permission, so a directory the coder left searchable but
// unreadable (git still goes through it) does not stop the move.
const walkFlag = unix.O_PATH

// chmodFd sets the mode of the file fd (opened with O_PATH, which fchmod
// refuses) through its /proc/self/fd link, which names that very inode.
func chmodFd(fd int, mode uint32) error {
	return unix.Chmod("/proc/self/fd/"+strconv.Itoa(fd), mode)
}
