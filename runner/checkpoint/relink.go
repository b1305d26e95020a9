package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Hard links: a checkpoint records each file's device and inode, so the
// paths that were one file before the run are known. Undo writes a file
// back as a new file beside its name, which would leave two names that
// shared one file as two copies: relink joins them again.

// linkGroups are, for each step that puts back a file, the before-entries
// of the other paths that were the same file (device and inode) as it.
func linkGroups(before *Manifest, steps []Step) map[string][]*Entry {
	type key struct{ dev, ino uint64 }
	var want map[key]bool
	for _, st := range steps {
		if st.Was != nil && st.Was.Kind == KindFile && st.Was.Ino != 0 {
			if want == nil {
				want = map[key]bool{}
			}
			want[key{st.Was.Dev, st.Was.Ino}] = true
		}
	}
	if want == nil {
		return nil
	}
	byFile := map[key][]*Entry{}
	for i := range before.Entries {
		e := &before.Entries[i]
		if k := (key{e.Dev, e.Ino}); e.Kind == KindFile && want[k] && e.covered() {
			byFile[k] = append(byFile[k], e)
		}
	}
	out := map[string][]*Entry{}
	for _, st := range steps {
		if st.Was == nil || st.Was.Kind != KindFile || st.Was.Ino == 0 {
			continue
		}
		for _, e := range byFile[key{st.Was.Dev, st.Was.Ino}] {
			if e.Path != st.Path {
				out[st.Path] = append(out[st.Path], e)
			}
		}
	}
	return out
}

// relink makes the paths of each group in links one file again, once
// their content is what it was before the run: the file whose inode
// survived the run (else the first path) is kept, each other path whose
// content and mode are the group's is replaced by a link to it. A path
// that differs (the person changed it since) is left alone. It returns a
// line per path relinked.
func relink(r *os.Root, links map[string][]*Entry, restored map[string]*Entry) ([]string, []error) {
	seen := map[string]bool{}
	var done []string
	var errs []error
	for _, p := range slices.Sorted(maps.Keys(links)) {
		if seen[p] || restored[p] == nil {
			continue
		}
		members := append([]*Entry{restored[p]}, links[p]...)
		slices.SortFunc(members, func(a, b *Entry) int { return strings.Compare(a.Path, b.Path) })
		for _, m := range members {
			seen[m.Path] = true
		}
		var anchor *Entry
		var anchorIno, anchorDev uint64
		var ok []*Entry // members that hold the group's content now
		for _, m := range members {
			ino, dev, same := holds(r, m)
			if !same {
				continue
			}
			ok = append(ok, m)
			if anchor == nil || (ino == m.Ino && dev == m.Dev && (anchorIno != anchor.Ino || anchorDev != anchor.Dev)) {
				anchor, anchorIno, anchorDev = m, ino, dev
			}
		}
		for _, m := range ok {
			if m == anchor {
				continue
			}
			if ino, dev, _ := holds(r, m); ino == anchorIno && dev == anchorDev {
				continue // one file already
			}
			if err := linkOver(r, anchor.Path, m.Path); err != nil {
				errs = append(errs, fmt.Errorf("%s: could not link it to %s again: %w", m.Path, anchor.Path, err))
				continue
			}
			done = append(done, fmt.Sprintf("hard-link %s to %s again (one file before the run)", m.Path, anchor.Path))
		}
	}
	return done, errs
}

// holds says whether path e.Path of the place is now a regular file with
// e's content and mode, and its inode and device.
func holds(r *os.Root, e *Entry) (ino, dev uint64, same bool) {
	if linkAbove(r, e.Path) != nil {
		return 0, 0, false
	}
	f, err := nofollow.OpenIn(r, e.Path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&modeBits != e.Mode&modeBits {
		return 0, 0, false
	}
	st, ok := filestamp.Of(fi)
	if !ok {
		return 0, 0, false
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil || hex.EncodeToString(h.Sum(nil)) != e.Hash {
		return 0, 0, false
	}
	return st.Ino, st.Dev, true
}

// linkOver replaces the place's path p by a hard link to its path to,
// through a new name beside p renamed over it.
func linkOver(r *os.Root, to, p string) error {
	if err := linkAbove(r, to); err != nil {
		return err
	}
	if err := linkAbove(r, p); err != nil {
		return err
	}
	tmp := path.Join(path.Dir(p), besideName(path.Base(p), "undo"))
	if err := r.Link(to, tmp); err != nil {
		return err
	}
	if err := r.Rename(tmp, p); err != nil {
		r.Remove(tmp)
		return err
	}
	return nil
}
