//go:build unix

package nofollow

import (
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// OpenFile is os.OpenFile that fails with ELOOP when name's last element
// is a symbolic link.
func OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag|syscall.O_NOFOLLOW, perm)
}

// OpenIn is root.OpenFile that fails with ELOOP when name's last element
// is a symbolic link. os.Root drops a caller's O_NOFOLLOW (it resolves a
// last-element link inside the root itself), so the parent is opened
// through root and the last element with openat(O_NOFOLLOW) from there.
func OpenIn(root *os.Root, name string, flag int, perm os.FileMode) (*os.File, error) {
	dir, base := filepath.Split(name)
	if base == "" || base == "." || base == ".." {
		return root.OpenFile(name, flag|syscall.O_NOFOLLOW, perm) // a directory named by its path: no last element to follow
	}
	if dir == "" {
		dir = "."
	}
	d, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var fd int
	for {
		fd, err = unix.Openat(int(d.Fd()), base, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), filepath.Join(root.Name(), name)), nil
}

// OpenDirIn is OpenIn of a directory: ENOTDIR when name is not one.
func OpenDirIn(root *os.Root, name string) (*os.File, error) {
	return OpenIn(root, name, os.O_RDONLY|syscall.O_DIRECTORY, 0)
}
