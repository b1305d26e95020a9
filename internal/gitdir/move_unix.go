//go:build unix

package gitdir

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"golang.org/x/sys/unix"
)

// MoveOut moves p, which is under root and had identity id when the sweep
// found it, to dir/name. Each directory from root down to p's parent is
// opened without following a link, so a directory swapped for a link is
// refused rather than followed out of root, and p is moved only when it is
// still the entry the sweep saw. Where dir is on another file system, p is
// copied whole (through the same opened directories, nothing followed) and
// then only what was copied and has not changed since is removed: what
// cannot be copied whole (a device, a pipe) stays where it is, nothing of
// it removed, and the error says so. Nothing is ever deleted that is not
// in dir.
func (m Mover) MoveOut(root, p string, id filestamp.ID, dir, name string) error {
	renameat := m.Renameat
	if renameat == nil {
		renameat = unix.Renameat
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is not under %s", p, root)
	}
	parts := strings.Split(rel, string(filepath.Separator))
	fd, err := unix.Open(root, walkFlag|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: root, Err: err}
	}
	for i, c := range parts[:len(parts)-1] {
		next, err := unix.Openat(fd, c, walkFlag|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
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
	if !sameID(&st, id) {
		return ErrChanged
	}
	qfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(qfd)
	err = renameat(fd, base, qfd, name)
	if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
		// The coder (the person's own user) took the write bits the move
		// needs; the person's user gives them back, for this move only.
		restore, werr := writable(fd, base, id)
		if werr != nil {
			return &os.LinkError{Op: "rename", Old: p, New: filepath.Join(dir, name), Err: fmt.Errorf("%w; and its modes could not be given back: %v", err, werr)}
		}
		defer restore()
		err = renameat(fd, base, qfd, name)
	}
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EXDEV) {
		return &os.LinkError{Op: "rename", Old: p, New: filepath.Join(dir, name), Err: err}
	}
	// Another file system. First make it harmless where it is: renamed in
	// its own directory (the same file system) to a name git does not
	// look for, so that however the copy goes, the person's next git
	// command does not find it. Then copy it out and remove only what was
	// copied and has not changed since.
	held, err := holdInPlace(fd, base)
	if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
		restore, werr := writable(fd, base, id)
		if werr == nil {
			defer restore()
			held, err = holdInPlace(fd, base)
		}
	}
	if err != nil {
		return fmt.Errorf("%s is on another file system than %s and could not be renamed where it is (%w); nothing of it was removed", p, dir, err)
	}
	heldPath := filepath.Join(filepath.Dir(p), held)
	copied, err := copyAt(fd, held, &id, qfd, name, heldPath)
	if err != nil {
		_ = os.RemoveAll(filepath.Join(dir, name)) // the partial copy, in dir: ours
		return fmt.Errorf("%s is on another file system than %s and could not be copied whole (%w); it was renamed to %s, where git does not find it, and nothing of it was removed", p, dir, err, heldPath)
	}
	if m.afterCopy != nil {
		m.afterCopy()
	}
	if err := copied.remove(fd); err != nil {
		return fmt.Errorf("copied %s to %s (another file system); what could not be copied or changed since stays at %s, where git does not find it: %w", p, filepath.Join(dir, name), heldPath, err)
	}
	return nil
}

// holdInPlace renames the entry base of the directory fd to a free name
// beginning with HeldPrefix and is that name; one held already stays.
func holdInPlace(fd int, base string) (string, error) {
	if strings.HasPrefix(base, HeldPrefix) {
		return base, nil
	}
	for n := 1; n < 1000; n++ {
		held := fmt.Sprintf("%s%d-%s", HeldPrefix, n, strings.TrimPrefix(base, "."))
		var st unix.Stat_t
		if err := unix.Fstatat(fd, held, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
			continue
		}
		if err := unix.Renameat(fd, base, fd, held); err != nil {
			return "", err
		}
		return held, nil
	}
	return "", fmt.Errorf("no free name beginning with %s", HeldPrefix)
}

func sameID(st *unix.Stat_t, id filestamp.ID) bool {
	return uint64(st.Dev) == id.Dev && uint64(st.Ino) == id.Ino
}

// copied is one entry copied out: what it was, so that only that is
// removed (a file by identity and change time, which the kernel sets on
// every write; a directory by identity and only once empty).
type copied struct {
	name  string
	id    filestamp.ID
	ctime unix.Timespec
	sum   [sha256.Size]byte // a file's content as copied
	dir   bool
	kids  []copied
	// special: a device, pipe or socket, not copied and so not removed.
	special bool
}

// copyAt copies the entry name of the directory src to the new entry
// dstName of dst, nothing followed. want, when not nil, is the identity
// the entry must have. path names the entry in errors.
func copyAt(src int, name string, want *filestamp.ID, dst int, dstName, path string) (copied, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(src, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return copied{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	c := copied{name: name, id: filestamp.ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, ctime: st.Ctim}
	if want != nil && c.id != *want {
		return c, ErrChanged
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		buf := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(src, name, buf)
		if err != nil {
			return c, &os.PathError{Op: "readlink", Path: path, Err: err}
		}
		if err := unix.Symlinkat(string(buf[:n]), dst, dstName); err != nil {
			return c, &os.PathError{Op: "symlink", Path: dstName, Err: err}
		}
		return c, nil
	case unix.S_IFREG:
		var err error
		c.sum, err = copyFileAt(src, name, &st, dst, dstName, path)
		return c, err
	case unix.S_IFDIR:
		c.dir = true
		in, err := openDirAt(src, name, c.id, path)
		if err != nil {
			return c, err
		}
		defer in.Close()
		if err := unix.Mkdirat(dst, dstName, 0o700); err != nil {
			return c, &os.PathError{Op: "mkdir", Path: dstName, Err: err}
		}
		outFd, err := unix.Openat(dst, dstName, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return c, &os.PathError{Op: "open", Path: dstName, Err: err}
		}
		defer unix.Close(outFd)
		names, err := in.Readdirnames(-1)
		if err != nil {
			return c, &os.PathError{Op: "list", Path: path, Err: err}
		}
		for _, n := range names {
			k, err := copyAt(int(in.Fd()), n, nil, outFd, n, filepath.Join(path, n))
			if err != nil {
				return c, err
			}
			c.kids = append(c.kids, k)
		}
		return c, unix.Fchmod(outFd, uint32(st.Mode)&0o7777|0o700)
	}
	// A device, pipe or socket cannot be copied: it is left (and so its
	// directory), and the rest is copied.
	c.special = true
	return c, nil
}

// copyFileAt copies the regular file name of src (st as seen) to dstName
// of dst and is the hash of what it copied; it fails when the file
// changed while it was read.
func copyFileAt(src int, name string, st *unix.Stat_t, dst int, dstName, path string) (sum [sha256.Size]byte, err error) {
	in, err := openFileAt(src, name, filestamp.ID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, st.Ctim, path)
	if err != nil {
		return sum, err
	}
	defer in.Close()
	ofd, err := unix.Openat(dst, dstName, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(st.Mode&0o777))
	if err != nil {
		return sum, &os.PathError{Op: "create", Path: dstName, Err: err}
	}
	out := os.NewFile(uintptr(ofd), dstName)
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(out, h), in); err != nil {
		out.Close()
		return sum, fmt.Errorf("copy %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return sum, err
	}
	var now unix.Stat_t
	if err := unix.Fstat(int(in.Fd()), &now); err != nil || now.Ctim != st.Ctim {
		return sum, fmt.Errorf("%s: %w", path, ErrChanged)
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// openFileAt opens the regular file name of parent for reading, not
// following a link, only when it has identity id and change time ctime.
func openFileAt(parent int, name string, id filestamp.ID, ctime unix.Timespec, path string) (*os.File, error) {
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || !sameID(&st, id) || st.Ctim != ctime || st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return nil, fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openDirAt opens the directory name of parent, not following a link, and
// only when it has identity id.
func openDirAt(parent int, name string, id filestamp.ID, path string) (*os.File, error) {
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open (not following links)", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || !sameID(&st, id) {
		unix.Close(fd)
		return nil, fmt.Errorf("%s: %w", path, ErrChanged)
	}
	return os.NewFile(uintptr(fd), path), nil
}

// remove removes c from the directory parent where it was copied from:
// each file only while it is still the one copied, each directory only
// once empty. What is left is named in the error.
func (c copied) remove(parent int) error {
	if c.special {
		return fmt.Errorf("%s: a device, pipe or socket, which cannot be copied", c.name)
	}
	if c.dir {
		d, err := openDirAt(parent, c.name, c.id, c.name)
		if err != nil {
			return err
		}
		var first error
		for _, k := range c.kids {
			if err := k.remove(int(d.Fd())); err != nil && first == nil {
				first = fmt.Errorf("%s/%w", c.name, err)
			}
		}
		d.Close()
		if first != nil {
			return first
		}
		if err := unix.Unlinkat(parent, c.name, unix.AT_REMOVEDIR); err != nil {
			return fmt.Errorf("%s: something was added to it since it was copied (%w)", c.name, err)
		}
		return nil
	}
	var st unix.Stat_t
	if err := unix.Fstatat(parent, c.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || !sameID(&st, c.id) || st.Ctim != c.ctime {
		return fmt.Errorf("%s: %w", c.name, ErrChanged)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFREG {
		// The change time is as coarse as the kernel's clock tick: the
		// content is compared too.
		f, err := openFileAt(parent, c.name, c.id, c.ctime, c.name)
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil || !bytes.Equal(h.Sum(nil), c.sum[:]) {
			return fmt.Errorf("%s: %w", c.name, ErrChanged)
		}
	}
	return unix.Unlinkat(parent, c.name, 0)
}
