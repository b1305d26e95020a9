package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// Hard links out of the place: a file of the place with more names than
// the place holds is one file with a file outside it (a shared config, a
// deduplicated store). Undo writes a file back as a new file, which would
// leave the place's name a copy that no longer shares a change with the
// other. So a checkpoint keeps one more name of such a file in the store
// (.links/<hash>-<dev>-<ino>; on the same file system only), and undo
// links the place's name to it again when the file outside is still that
// file with its content from before the run; otherwise undo puts back a
// copy and says why.

// linksDir holds the store's names of files with names outside the
// place; it is never a record's id (ValidID wants a letter or digit first).
const linksDir = ".links"

// anchorPath is the store's name of e's file.
func (s *Store) anchorPath(e *Entry) string {
	dev, ino := e.outFile()
	return filepath.Join(s.Dir, linksDir, fmt.Sprintf("%s-%d-%d", e.Hash, dev, ino))
}

type fileKey struct{ dev, ino uint64 }

func sameFile(fi fs.FileInfo, e *Entry) bool {
	st, ok := filestamp.Of(fi)
	return ok && st.Ino == e.Ino && st.Dev == e.Dev
}

// isOutFile says whether fi is the file outside the place e is (or was)
// one with (Entry.outFile).
func isOutFile(fi fs.FileInfo, e *Entry) bool {
	st, ok := filestamp.Of(fi)
	dev, ino := e.outFile()
	return ok && st.Ino == ino && st.Dev == dev
}

// anchorOutside sets each file entry's Out (its names outside the place:
// its link count, which the walk left in Out, less its names in m) and
// keeps a name in the store of each covered one that has any.
func (s *Store) anchorOutside(root string, m *Manifest) {
	inside := map[fileKey]uint64{}
	for _, e := range m.Entries {
		if e.Kind == KindFile && e.Ino != 0 {
			inside[fileKey{e.Dev, e.Ino}]++
		}
	}
	for i := range m.Entries {
		e := &m.Entries[i]
		if e.Kind != KindFile || e.Out == 0 {
			continue
		}
		if n := inside[fileKey{e.Dev, e.Ino}]; e.Out > n {
			e.Out -= n
		} else {
			e.Out = 0
			continue
		}
		if !e.covered() {
			continue
		}
		a := s.anchorPath(e)
		if fi, err := os.Lstat(a); err == nil && sameFile(fi, e) {
			continue
		}
		if os.MkdirAll(filepath.Dir(a), 0o700) != nil {
			continue
		}
		tmp := fmt.Sprintf("%s.%d.new", a, time.Now().UnixNano())
		if os.Link(filepath.Join(root, filepath.FromSlash(e.Path)), tmp) != nil {
			continue // another file system, or not the person's to link: undo puts back a copy
		}
		if fi, err := os.Lstat(tmp); err != nil || !sameFile(fi, e) || os.Rename(tmp, a) != nil {
			os.Remove(tmp) // swapped since the walk saw it
		}
	}
}

// relinkOutside links each file restored that had names outside the place
// to that file again (through the store's name of it), when it is still
// the same file with the same content and mode, and the file outside
// still has a name; each other one stays the copy restored, with a line
// saying why. at carries out a change from the directory of a path.
func (s *Store) relinkOutside(r *os.Root, restored map[string]*Entry, links map[string][]*Entry,
	at func(p string, do func(pr *os.Root, base string) error) (bool, error)) (done, copies []string) {
	for _, p := range slices.Sorted(maps.Keys(restored)) {
		e := restored[p]
		if e.Out == 0 {
			continue
		}
		why := s.outsideNow(r, e, links[p])
		if why == "" {
			ok, err := at(p, func(pr *os.Root, base string) error { return linkFromStore(pr, s.anchorPath(e), base) })
			if !ok {
				continue
			}
			if err == nil {
				done = append(done, fmt.Sprintf("hard-link %s to the file outside the project it was one with before the run (the same file, with the same content)", p))
				continue
			}
			why = "could not be linked to again (" + err.Error() + ")"
		}
		copies = append(copies, fmt.Sprintf("%s: was one file with a file outside the project, which %s; put back as its own copy", p, why))
	}
	return done, copies
}

// outsideNow is "" when the store's name of e's file is still a name of a
// file outside the place (not counting the place's paths in members that
// are that file now) with e's content and mode; else what it is instead.
func (s *Store) outsideNow(r *os.Root, e *Entry, members []*Entry) string {
	a := s.anchorPath(e)
	f, err := os.Open(a)
	if err != nil {
		return "Sentinel could not keep a name of (on another file system, or not yours to link)"
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !isOutFile(fi, e) || !fi.Mode().IsRegular() {
		return "Sentinel could not keep a name of"
	}
	st, _ := filestamp.Of(fi)
	names := int64(st.Nlink) - 1 // the store's own
	for _, m := range append([]*Entry{e}, members...) {
		if li, err := r.Lstat(filepath.FromSlash(m.Path)); err == nil && isOutFile(li, e) {
			names--
		}
	}
	if names < 1 {
		return "is gone (deleted, or replaced by a new file)"
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil || hex.EncodeToString(h.Sum(nil)) != e.Hash || fi.Mode()&modeBits != e.Mode&modeBits {
		return "holds other content now (changed through this name during the run, or since), and is not changed back"
	}
	return ""
}

// pruneAnchors removes the store's names of files no manifest in used
// names, once older than blobGrace.
func (s *Store) pruneAnchors(used map[string]bool) {
	des, err := os.ReadDir(filepath.Join(s.Dir, linksDir))
	if err != nil {
		return
	}
	old := time.Now().Add(-blobGrace)
	for _, de := range des {
		if used[de.Name()] {
			continue
		}
		if info, err := de.Info(); err == nil && info.ModTime().Before(old) {
			_ = os.Remove(filepath.Join(s.Dir, linksDir, de.Name()))
		}
	}
}
