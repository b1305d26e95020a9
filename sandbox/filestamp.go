package sandbox

import (
	"fmt"
	"hash"
	"os"
	"syscall"
)

// The caches kept in the state directory (go env's answer, the git
// identity) are keyed on what their answer was read from; stampFile is
// how a file enters such a key.

// stampFile writes what p is now: its size, modification time, inode and
// mode, or that it is not there.
func stampFile(h hash.Hash, p string) {
	st, err := os.Stat(p)
	if err != nil {
		fmt.Fprintf(h, "nofile %s\n", p)
		return
	}
	fmt.Fprintf(h, "file %s %d %d %v %d\n", p, st.Size(), st.ModTime().UnixNano(), st.Mode(), inode(st))
}

// inode is a file's inode number (0 where the system gives none).
func inode(st os.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Ino)
	}
	return 0
}
