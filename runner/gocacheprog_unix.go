//go:build unix

package runner

import (
	"os"
	"syscall"
)

// openReadOnly opens path for reading only, refusing a symlink.
func openReadOnly(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}

// ownedAndPrivate: the file is the user's own and no other user may write
// it (an entry another user could have written is not the person's).
func ownedAndPrivate(st os.FileInfo) bool {
	if st.Mode().Perm()&0o022 != 0 {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}
