package nofollow

import (
	"io/fs"
	"os"
	"syscall"
)

// OpenFile is os.OpenFile that fails with ELOOP when name's last element
// is a symbolic link or another reparse point (see the package doc for
// why this is weaker than O_NOFOLLOW).
func OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return checked(name, os.Lstat, func() (*os.File, error) { return os.OpenFile(name, flag, perm) })
}

// OpenIn is root.OpenFile with the same check, inside root.
func OpenIn(root *os.Root, name string, flag int, perm os.FileMode) (*os.File, error) {
	return checked(name, root.Lstat, func() (*os.File, error) { return root.OpenFile(name, flag, perm) })
}

func checked(name string, lstat func(string) (fs.FileInfo, error), open func() (*os.File, error)) (*os.File, error) {
	before, err := lstat(name)
	if err == nil && isLink(before) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	f, err := open()
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	now, err := lstat(name)
	if err != nil || isLink(now) || !os.SameFile(opened, now) || (before != nil && !os.SameFile(before, now)) {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	return f, nil
}

// isLink: a symbolic link, or a reparse point Go reports as irregular
// (a junction, a mount point, an app-exec link).
func isLink(fi fs.FileInfo) bool {
	return fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0
}

// OpenDirIn is OpenIn of a directory: ENOTDIR when name is not one.
func OpenDirIn(root *os.Root, name string) (*os.File, error) {
	f, err := OpenIn(root, name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	return f, nil
}
