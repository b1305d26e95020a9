package runner

import (
	"fmt"
	"io/fs"
	"syscall"
)

// restIdentity is what of a file no program can set back: its device,
// inode and change time (a write, a chmod or a touch -r moves it; a file
// moved over it has another inode). A file past the content budget is
// stamped with it.
func restIdentity(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	sec, nsec := st.Ctim.Unix()
	return fmt.Sprintf(" dev %d ino %d ctime %d.%09d", st.Dev, st.Ino, sec, nsec)
}
