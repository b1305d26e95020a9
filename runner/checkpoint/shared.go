package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// A file of the place may share its data with a name outside it: a hard
// link from pnpm's store into node_modules, from uv's cache into .venv
// (uv links by default on Linux), a `cp -al` backup of the project. The
// sandbox lets the coder write the place, and a write through such a name
// (`>>`, an editor writing in place) changes the file outside too: the
// package cache every other project installs from, the backup. Undo puts
// back the place's name, not the other. So before the coder acts, each such
// file becomes the place's own copy (same content, mode, owner and times):
// what the coder writes stays in the place.

// SharedOutside are the regular files of m whose count of names is more
// than the names m holds for that file (Entry.Out): some name lies outside
// the place (or in a part of it the checkpoint did not list).
func (m *Manifest) SharedOutside() []string {
	var out []string
	for i := range m.Entries {
		if e := &m.Entries[i]; e.Kind == KindFile && e.Out > 0 && e.OutIno == 0 {
			out = append(out, e.Path)
		}
	}
	return out
}

// CarryOutside gives each of paths (made the place's own copies by
// Unshare since was was taken) in m the link facts was holds of it: how
// many names it had outside and which file that was, so that undo can link
// it to that file again (relinkOutside). A path whose content differs
// from was's is left as m has it.
func (m *Manifest) CarryOutside(was *Manifest, paths []string) {
	for _, p := range paths {
		old, ok := was.Get(p)
		e, ok2 := m.Get(p)
		if !ok || !ok2 || old.Kind != KindFile || e.Kind != KindFile || old.Out == 0 || old.Hash == "" || e.Hash != old.Hash {
			continue
		}
		e.Out = old.Out
		e.OutDev, e.OutIno = old.outFile()
	}
}

// outFile is the device and inode of the file whose names lie outside the
// place: e's own, or the one it was one with before Unshare.
func (e *Entry) outFile() (dev, ino uint64) {
	if e.OutIno != 0 {
		return e.OutDev, e.OutIno
	}
	return e.Dev, e.Ino
}

// Unshare makes each of paths (slash-separated, relative to root) a file
// of its own: a copy with the same content, mode, owner (when it can) and
// times renamed over the name. A path that is no longer a regular file is
// left alone. The first failure is returned with the paths done before it.
func Unshare(root string, paths []string) ([]string, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var done []string
	for _, p := range paths {
		ok, err := unshareOne(r, p)
		if err != nil {
			return done, fmt.Errorf("%s shares its data with a file outside %s (a hard link) and could not be made a copy of its own: %w", p, root, err)
		}
		if ok {
			done = append(done, p)
		}
	}
	return done, nil
}

func unshareOne(r *os.Root, p string) (bool, error) {
	if err := linkAbove(r, p); err != nil {
		return false, err
	}
	src, err := nofollow.OpenIn(r, p, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return false, err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return false, err
	}
	st, ok := filestamp.Of(fi)
	if !fi.Mode().IsRegular() || !ok || st.Nlink < 2 {
		return false, nil
	}
	tmp := path.Join(path.Dir(p), besideName(path.Base(p), "own"))
	dst, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		if cerr := dst.Chown(st.UID, st.GID); cerr != nil && os.Geteuid() == 0 {
			err = cerr
		}
	}
	if err == nil {
		err = dst.Chmod(fi.Mode() & modeBits)
	}
	err = errors.Join(err, dst.Close())
	if err == nil {
		err = r.Chtimes(tmp, fi.ModTime(), fi.ModTime())
	}
	if err == nil {
		err = r.Rename(tmp, p)
	}
	if err != nil {
		r.Remove(tmp)
		return false, err
	}
	return true, nil
}
