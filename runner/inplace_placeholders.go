package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// To hold a git include or a hooks folder read-only, exec makes it first
// where it is missing (gitConfigIncludes, gitHooksDirs): an empty file, an
// empty folder, and the folders above it. Those are Sentinel's, not the
// coder's: at the end each one still empty and the same file is removed
// before the place is compared, so the summary never lists it as the
// run's change; one that changed (it was read-only, so a change is a hole)
// is kept and flagged.

// placeholder is a path Sentinel made, as it made it.
type placeholder struct {
	path     string
	dir      bool
	target   bool // held read-only (not a folder made above one)
	dev, ino uint64
	mtime    int64
}

// placeholders are the paths a run made to hold them read-only.
type placeholders struct {
	mu   sync.Mutex
	list []placeholder
}

// absent are those of paths, and of the folders above each, that do not
// exist now: what making them makes.
func absent(paths []string) []string {
	var out []string
	for _, p := range paths {
		for q := filepath.Clean(p); ; q = filepath.Dir(q) {
			if _, err := os.Lstat(q); !os.IsNotExist(err) || filepath.Dir(q) == q {
				break
			}
			if !slices.Contains(out, q) {
				out = append(out, q)
			}
		}
	}
	return out
}

// note records each of paths (made just now, absent's answer for
// targets) as it is.
func (ps *placeholders) note(paths, targets []string) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		st, ok := filestamp.Of(fi)
		if !ok {
			continue
		}
		ps.list = append(ps.list, placeholder{path: p, dir: fi.IsDir(), target: slices.Contains(targets, p), dev: st.Dev, ino: st.Ino, mtime: fi.ModTime().UnixNano()})
	}
}

// removeUnchanged removes each placeholder still empty and the same file
// (deepest first), and is a flag for each one that changed; root is the
// place, whose paths are flagged relative to it.
func (ps *placeholders) removeUnchanged(root string) []Flag {
	if ps == nil {
		return nil
	}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	list := slices.Clone(ps.list)
	slices.SortFunc(list, func(a, b placeholder) int { return len(b.path) - len(a.path) })
	var out []Flag
	for _, h := range list {
		fi, err := os.Lstat(h.path)
		if err != nil {
			continue // gone
		}
		st, ok := filestamp.Of(fi)
		same := ok && st.Dev == h.dev && st.Ino == h.ino && fi.IsDir() == h.dir
		if same && h.dir {
			if des, err := os.ReadDir(h.path); err != nil || len(des) > 0 {
				same = false
			}
		} else if same {
			same = fi.Mode().IsRegular() && fi.Size() == 0 && fi.ModTime().UnixNano() == h.mtime
		}
		if same && os.Remove(h.path) == nil || !h.target {
			continue // a folder above one, not held: the coder may put files in it
		}
		what := "empty file"
		if h.dir {
			what = "empty folder"
		}
		rel := h.path
		if r, err := filepath.Rel(root, h.path); err == nil && r != ".." && !strings.HasPrefix(r, "../") {
			rel = filepath.ToSlash(r)
		}
		out = append(out, Flag{rel, "DANGEROUS: Sentinel made this " + what + " before the coder started, to hold it read-only (a git config include or a hooks folder: git runs what it says); it changed during the run although it was read-only: look at it before any git command here"})
	}
	ps.list = nil
	return out
}

// removePlaceholders is removeUnchanged of what g made (nil g: nothing).
// No other in-place run can hold them read-only meanwhile: its sandbox
// would hold them by a mount that removing the path takes away, after
// which its coder could make the hooks folder or include anew and write
// it (h/ipatk11: a second run wrote .githooks/pre-commit once the first
// had ended), but a run holds its place for its whole life and a second
// one there, inside it or around it is refused (inplace_lock.go).
func (g *gitGuard) removePlaceholders() []Flag {
	if g == nil {
		return nil
	}
	return g.made.removeUnchanged(g.p.Root)
}
