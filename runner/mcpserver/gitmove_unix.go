//go:build unix

package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// renameat is unix.Renameat; tests make it fail as another file system would.
var renameat = unix.Renameat

// errChanged is an entry that is no longer the one the sweep found.
var errChanged = errors.New("it is not the one Sentinel found any more (it changed while Sentinel looked)")

// moveOut renames p, which is under root and had identity id when the
// sweep found it, to dir/name. Each directory from root down to p's
// parent is opened without following a link, so a directory swapped for a
// link by a concurrent call is refused rather than followed out of root,
// and p is moved only when it is still the entry the sweep saw. Nothing is
// ever copied or deleted: a rename that fails (another file system) fails.
func moveOut(root, p string, id fileID, dir, name string) error {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not under %s", p, root)
	}
	parts := strings.Split(rel, string(filepath.Separator))
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: root, Err: err}
	}
	for i, c := range parts[:len(parts)-1] {
		next, err := unix.Openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return &os.PathError{Op: "open (not following links)", Path: filepath.Join(append([]string{root}, parts[:i+1]...)...), Err: err}
		}
		fd = next
	}
	defer unix.Close(fd)
	base := parts[len(parts)-1]
	var st unix.Stat_t
	if err := unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &os.PathError{Op: "stat", Path: p, Err: err}
	}
	if uint64(st.Dev) != id.Dev || uint64(st.Ino) != id.Ino {
		return errChanged
	}
	qfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(qfd)
	if err := renameat(fd, base, qfd, name); err != nil {
		return &os.LinkError{Op: "rename", Old: p, New: filepath.Join(dir, name), Err: err}
	}
	return nil
}
