//go:build unix

package mcpserver

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// fdLayer is the unix layer: directories held as file descriptors, every
// step an *at call with O_NOFOLLOW.
type fdLayer struct{}

func (fdLayer) Name() string { return "openat" }

// defaultLayer is the layer a server uses unless a test picks another.
func defaultLayer() fileLayer { return fdLayer{} }

// oNonblock keeps an open of a fifo from hanging.
const oNonblock = syscall.O_NONBLOCK

func (fdLayer) OpenRoot(p string) (dirFS, error) {
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return fdDir{fd: fd, name: p}, nil
}

func (fdLayer) Rename(od dirFS, oname string, nd dirFS, nname string, noReplace bool) error {
	o, n := od.(fdDir), nd.(fdDir)
	if noReplace {
		return renameNoReplace(o.fd, oname, n.fd, nname)
	}
	return unix.Renameat(o.fd, oname, n.fd, nname)
}

// fdDir is a directory held as a file descriptor.
type fdDir struct {
	fd   int
	name string
}

func linkErr(err error) error {
	if errors.Is(err, unix.ELOOP) {
		return errLinked
	}
	if errors.Is(err, unix.ENOTDIR) {
		return errNotDir
	}
	return err
}

func (d fdDir) Close() error { return unix.Close(d.fd) }

func (d fdDir) Stat() (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstat(d.fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: d.name, Err: err}
	}
	return statInfo(d.name, &st), nil
}

func (d fdDir) Lstat(name string) (fs.FileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return statInfo(name, &st), nil
}

func (d fdDir) OpenDir(name string) (dirFS, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, linkErr(err)
	}
	return fdDir{fd: fd, name: name}, nil
}

func (d fdDir) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

func (d fdDir) Names() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), d.name)
	defer f.Close()
	return f.Readdirnames(-1)
}

func (d fdDir) Readlink(name string) (string, error) {
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(d.fd, name, buf)
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

func (d fdDir) Symlink(target, name string) error { return unix.Symlinkat(target, d.fd, name) }

func (d fdDir) Mkdir(name string, perm fs.FileMode) error {
	return unix.Mkdirat(d.fd, name, uint32(perm.Perm()))
}

func (d fdDir) Remove(name string) error {
	err := unix.Unlinkat(d.fd, name, 0)
	if errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EPERM) {
		err = unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR)
	}
	if err != nil {
		return &fs.PathError{Op: "remove", Path: name, Err: err}
	}
	return nil
}

func isEXDEV(err error) bool { return errors.Is(err, unix.EXDEV) }

// statInfo is st as an fs.FileInfo (its Sys is st, for identOf).
func statInfo(name string, st *unix.Stat_t) fs.FileInfo {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	}
	if st.Mode&unix.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if st.Mode&unix.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if st.Mode&unix.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return &unixInfo{name: filepath.Base(name), st: *st, mode: m}
}

type unixInfo struct {
	name string
	st   unix.Stat_t
	mode fs.FileMode
}

func (i *unixInfo) Name() string       { return i.name }
func (i *unixInfo) Size() int64        { return i.st.Size }
func (i *unixInfo) Mode() fs.FileMode  { return i.mode }
func (i *unixInfo) ModTime() time.Time { return time.Unix(int64(i.st.Mtim.Sec), int64(i.st.Mtim.Nsec)) }
func (i *unixInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *unixInfo) Sys() any           { return &i.st }

// identOf is what a file is: its device and inode.
func identOf(fi fs.FileInfo) (ident, bool) {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t:
		return ident{dev: uint64(st.Dev), ino: st.Ino}, true
	case *unix.Stat_t:
		return ident{dev: uint64(st.Dev), ino: st.Ino}, true
	}
	return ident{}, false
}

// samePathText compares path text as the file system does.
func samePathText(a, b string) bool { return a == b }

// linkCount is how many names (hard links) the file fi describes has.
func linkCount(fi fs.FileInfo) uint64 {
	switch st := fi.Sys().(type) {
	case *syscall.Stat_t:
		return uint64(st.Nlink)
	case *unix.Stat_t:
		return uint64(st.Nlink)
	}
	return 1
}
