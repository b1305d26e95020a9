//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// openIn opens the slash-separated rel under the place for reading: one
// openat2 from the place's directory (dir) that follows no symlink in any
// element and never leaves the place; on a kernel without openat2 (before
// 5.6), or for a rel longer than PATH_MAX (which one openat2 cannot take),
// an element at a time through r, following no link either
// (openNoLinks).
func openIn(r *os.Root, dir *os.File, rel string, flag int) (*os.File, error) {
	if f, ok, err := openBeneath(r, dir, rel, flag); ok {
		return f, err
	}
	return openNoLinks(r, rel, flag)
}

// openBeneath opens rel from dir with one openat2 that follows no symlink
// in any element and never leaves dir; ok is false where there is no
// openat2, dir is nil (a test of the fallback) or rel is longer than one
// openat2 takes (a place nested past PATH_MAX: os.Root opens it element by
// element), for the caller's fallback.
func openBeneath(r *os.Root, dir *os.File, rel string, flag int) (f *os.File, ok bool, err error) {
	if dir == nil {
		return nil, false, nil
	}
	how := unix.OpenHow{
		Flags:   uint64(flag | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(int(dir.Fd()), rel, &how)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), filepath.Join(r.Name(), rel)), true, nil
		case unix.EINTR, unix.EAGAIN:
			continue
		case unix.ENOSYS, unix.EPERM:
			return nil, false, nil // no openat2 here (or a filter forbids it)
		case unix.ENAMETOOLONG:
			if len(rel) >= unix.PathMax {
				return nil, false, nil // the whole path is too long for one call, not a name
			}
		}
		return nil, true, &os.PathError{Op: "openat2", Path: rel, Err: err}
	}
}

// openDirBeneath is openBeneath of a directory.
func openDirBeneath(r *os.Root, dir *os.File, rel string) (*os.File, bool, error) {
	return openBeneath(r, dir, rel, unix.O_RDONLY|unix.O_DIRECTORY)
}
