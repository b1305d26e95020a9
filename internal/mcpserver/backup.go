package mcpserver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

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

// renameAside is the layer's rename; tests replace it to take the copying
// path.
var renameAside = func(l fileLayer, od dirFS, oname string, nd dirFS, nname string) error {
	return l.Rename(od, oname, nd, nname, true)
}

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

// plannedBackup is where a backup of abs will be kept: the backups dir,
// the backup's name in it, and its path (told before the operation acts).
func plannedBackup(abs string) (dir, name, path string, err error) {
	if dir, err = backupDir(); err != nil {
		return "", "", "", err
	}
	name = backupName(abs)
	return dir, name, filepath.Join(dir, name), nil
}

// backupName is a new name for a backup of abs: when, and where it was.
// A control or bidi character of the path (a newline, an ESC a client put
// in a file's name) becomes '_', so listing the backups dir in a terminal
// prints nothing the client chose to send to it.
func backupName(abs string) string {
	name := time.Now().UTC().Format("20060102-150405.000000000") + "-" + randHex()[:6] + "-" + strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) {
			return '_'
		}
		return r
	}, strings.TrimPrefix(abs, "/"))
	if len(name) > 200 {
		name = name[:200]
	}
	return name
}

// keepAside moves r's entry into the backups dir (dir, as name: see
// plannedBackup) and returns the backup's path: the entry is gone from
// its place, kept whole, by one rename. Where the backups dir cannot be
// renamed into (another file system; on the os.Root layer, always) the
// entry is first renamed aside in its own
// directory — one rename on its own file system, so from then on nothing
// written to its path is lost with it (a new file there stays, a write
// into a directory that was there fails) — then copied into the backups
// dir (within maxBackupBytes) and the aside entry removed; the person is
// told on stderr that the backup was copied.
func (s *Server) keepAside(r reached, dir, name string) (string, error) {
	bd, err := s.files.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer bd.Close()
	err = renameAside(s.files, r.dir, r.name, bd, name)
	if err == nil {
		return filepath.Join(dir, name), nil
	}
	if !isCrossDir(err) {
		return "", err
	}
	aside := ".sentinel-aside-" + randHex()[:12]
	if err := s.files.Rename(r.dir, r.name, r.dir, aside, true); err != nil {
		return "", fmt.Errorf("keep a backup of %s (nothing changed): %w", r.pl.Abs, err)
	}
	budget := maxBackupBytes
	if err := copyTreeAt(r.dir, aside, bd, name, &budget); err != nil {
		removeAllAt(bd, name)
		if rerr := s.files.Rename(r.dir, aside, r.dir, r.name, true); rerr != nil {
			return "", fmt.Errorf("keep a backup of %s: %w; it could not be put back either (%v): it is at %s", r.pl.Abs, err, rerr, filepath.Join(filepath.Dir(r.pl.Abs), aside))
		}
		return "", fmt.Errorf("keep a backup of %s (nothing changed): %w", r.pl.Abs, err)
	}
	afterBackupCopy()
	if err := removeAllAt(r.dir, aside); err != nil {
		return "", fmt.Errorf("remove %s after keeping it as %s: %w (what is left of it is at %s)", r.pl.Abs, filepath.Join(dir, name), err, filepath.Join(filepath.Dir(r.pl.Abs), aside))
	}
	tellPerson(fmt.Sprintf("the backup of %s was copied to %s, not moved (the backups dir is on another file system, or this system renames only within one root)", r.pl.Abs, filepath.Join(dir, name)))
	return filepath.Join(dir, name), nil
}

// afterBackupCopy runs between a copied backup and the removal of what it
// kept; tests change the place there, as another process might.
var afterBackupCopy = func() {}

// keepCopy copies r's regular file into the backups dir (dir, as name:
// see plannedBackup), leaving it in place (for an overwrite that then
// replaces it atomically).
func (s *Server) keepCopy(r reached, dir, name string) (string, error) {
	bd, err := s.files.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer bd.Close()
	budget := maxBackupBytes
	if err := copyTreeAt(r.dir, r.name, bd, name, &budget); err != nil {
		removeAllAt(bd, name)
		return "", fmt.Errorf("keep a backup of %s (nothing changed): %w", r.pl.Abs, err)
	}
	return filepath.Join(dir, name), nil
}

var errTooBig = errors.New("too big to keep a backup of (over 1 GiB): ask the person to do it")

// copyTreeAt copies the entry name in dir (a file, a symlink as a symlink,
// or a directory and all it holds) to dname in ddir, spending budget.
// Devices, sockets, fifos and other reparse points are an error: nothing
// is removed that was not kept.
func copyTreeAt(dir dirFS, name string, ddir dirFS, dname string, budget *int64) error {
	fi, err := dir.Lstat(name)
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := dir.Readlink(name)
		if err != nil {
			return err
		}
		return ddir.Symlink(target, dname)
	case fi.Mode().IsRegular():
		if *budget -= fi.Size(); *budget < 0 {
			return errTooBig
		}
		src, err := dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, err := ddir.OpenFile(dname, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(dst, io.LimitReader(src, fi.Size()+1)); err != nil {
			dst.Close()
			return err
		}
		if err := dst.Sync(); err != nil {
			dst.Close()
			return err
		}
		return dst.Close()
	case isPlainDir(fi):
		if err := ddir.Mkdir(dname, 0o700); err != nil {
			return err
		}
		sd, err := dir.OpenDir(name)
		if err != nil {
			return err
		}
		defer sd.Close()
		dd, err := ddir.OpenDir(dname)
		if err != nil {
			return err
		}
		defer dd.Close()
		names, err := sd.Names()
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
		return nil
	}
	// A device, socket or pipe cannot be kept: what keeps it aside would
	// then remove what it did not keep.
	return fmt.Errorf("%s is a device, socket or pipe, which cannot be kept as a backup; ask the person to remove it", name)
}

// removeAllAt removes the entry name in dir and, for a directory,
// everything in it, never following a symlink.
func removeAllAt(dir dirFS, name string) error {
	fi, err := dir.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if isPlainDir(fi) {
		sd, err := dir.OpenDir(name)
		if err != nil {
			return err
		}
		names, err := sd.Names()
		if err != nil {
			sd.Close()
			return err
		}
		for _, n := range names {
			if err := removeAllAt(sd, n); err != nil {
				sd.Close()
				return err
			}
		}
		sd.Close()
	}
	return dir.Remove(name)
}
