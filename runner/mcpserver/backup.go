//go:build unix

package mcpserver

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Every destructive file operation keeps what it destroys: edit the old
// content, copy and move what they overwrite, delete the entry itself
// (a whole tree for a recursive delete). Backups live in the user's state
// dir under mcp/backups, which the person reaches and no tool does (see
// stateGuard), and the answer names each one.

// maxBackupBytes bounds a backup that has to be copied (a delete across
// file systems, an overwritten file): a bigger one is refused, and nothing
// is changed. A variable for tests.
var maxBackupBytes int64 = 1 << 30

// renameAside is renameat(2); tests replace it to take the copying path.
var renameAside = unix.Renameat

func backupDir() (string, error) {
	dir, err := userstate.Path(filepath.Join("mcp", "backups"))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return dir, nil
}

// backupName is a new name for a backup of abs: when, and where it was.
func backupName(abs string) string {
	name := time.Now().UTC().Format("20060102-150405.000000000") + "-" + randHex()[:6] + "-" + strings.ReplaceAll(strings.TrimPrefix(abs, "/"), "/", "_")
	if len(name) > 200 {
		name = name[:200]
	}
	return name
}

// keepAside moves r's entry into the backups dir and returns the backup's
// path: the entry is gone from its place, kept whole. Across file systems
// it is copied (within maxBackupBytes) and then removed.
func (s *Server) keepAside(r reached) (string, error) {
	dir, err := backupDir()
	if err != nil {
		return "", err
	}
	bfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	defer unix.Close(bfd)
	name := backupName(r.pl.Abs)
	err = renameAside(r.dir, r.name, bfd, name)
	if err == nil {
		return filepath.Join(dir, name), nil
	}
	if !errors.Is(err, unix.EXDEV) {
		return "", err
	}
	budget := maxBackupBytes
	if err := copyTreeAt(r.dir, r.name, bfd, name, &budget); err != nil {
		removeAllAt(bfd, name)
		return "", fmt.Errorf("keep a backup of %s (nothing changed): %w", r.pl.Abs, err)
	}
	if err := removeAllAt(r.dir, r.name); err != nil {
		return "", fmt.Errorf("remove %s after keeping it as %s: %w", r.pl.Abs, filepath.Join(dir, name), err)
	}
	return filepath.Join(dir, name), nil
}

// keepCopy copies r's regular file into the backups dir, leaving it in
// place (for an overwrite that then replaces it atomically).
func (s *Server) keepCopy(r reached) (string, error) {
	dir, err := backupDir()
	if err != nil {
		return "", err
	}
	bfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", err
	}
	defer unix.Close(bfd)
	name := backupName(r.pl.Abs)
	budget := maxBackupBytes
	if err := copyTreeAt(r.dir, r.name, bfd, name, &budget); err != nil {
		removeAllAt(bfd, name)
		return "", fmt.Errorf("keep a backup of %s (nothing changed): %w", r.pl.Abs, err)
	}
	return filepath.Join(dir, name), nil
}

var errTooBig = errors.New("too big to keep a backup of (over 1 GiB): ask the person to do it")

// copyTreeAt copies the entry name in dir (a file, a symlink as a symlink,
// or a directory and all it holds) to dname in ddir, spending budget.
// Devices, sockets and fifos are skipped.
func copyTreeAt(dir int, name string, ddir int, dname string, budget *int64) error {
	var st unix.Stat_t
	if err := unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		buf := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(dir, name, buf)
		if err != nil {
			return err
		}
		return unix.Symlinkat(string(buf[:n]), ddir, dname)
	case unix.S_IFREG:
		if *budget -= st.Size; *budget < 0 {
			return errTooBig
		}
		in, err := unix.Openat(dir, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		src := os.NewFile(uintptr(in), name)
		defer src.Close()
		out, err := unix.Openat(ddir, dname, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err != nil {
			return err
		}
		dst := os.NewFile(uintptr(out), dname)
		if _, err := io.Copy(dst, io.LimitReader(src, st.Size+1)); err != nil {
			dst.Close()
			return err
		}
		if err := dst.Sync(); err != nil {
			dst.Close()
			return err
		}
		return dst.Close()
	case unix.S_IFDIR:
		if err := unix.Mkdirat(ddir, dname, 0o700); err != nil {
			return err
		}
		sd, err := openDirAt(dir, name)
		if err != nil {
			return err
		}
		src := os.NewFile(uintptr(sd), name)
		defer src.Close()
		dd, err := openDirAt(ddir, dname)
		if err != nil {
			return err
		}
		defer unix.Close(dd)
		names, err := src.Readdirnames(-1)
		if err != nil {
			return err
		}
		for _, n := range names {
			if *budget -= 512; *budget < 0 { // an entry costs something too
				return errTooBig
			}
			if err := copyTreeAt(sd, n, dd, n, budget); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeAllAt removes the entry name in dir and, for a directory,
// everything in it, never following a symlink.
func removeAllAt(dir int, name string) error {
	err := unix.Unlinkat(dir, name, 0)
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	if !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EPERM) {
		return err
	}
	sd, err := openDirAt(dir, name)
	if err != nil {
		return err
	}
	d := os.NewFile(uintptr(sd), name)
	names, err := d.Readdirnames(-1)
	if err != nil {
		d.Close()
		return err
	}
	for _, n := range names {
		if err := removeAllAt(sd, n); err != nil {
			d.Close()
			return err
		}
	}
	d.Close()
	return unix.Unlinkat(dir, name, unix.AT_REMOVEDIR)
}
