// Package gitrest stamps the rest of a git dir — what the other in-place
// checks (objects, refs, the index, the run-later state, the entries held
// read-only) do not cover — and names every path that is new, changed or
// gone between two stamps, so that a name nobody thought of is reported
// rather than passed over. sentinel exec compares the start of a run with
// its end; sentinel mcp compares before and after each command.
//
// Each top-level entry of a git dir is one of three kinds:
//
//   - skipped: objects (proven in by the object check), refs and
//     packed-refs, HEAD (the ref check: a HEAD or packed-refs pointing at a
//     ref the coder wrote is its to report), the index (its own check), the
//     entries held read-only (hooks, config, info, modules, worktrees), what
//     is taken out (the left-over rebase and merge states, shallow,
//     commondir, config.worktree) and, in a repository whose refs are a
//     reftable stack, reftable/.
//   - by kind, and for what they point to: logs/, FETCH_HEAD, ORIG_HEAD
//     and COMMIT_EDITMSG. git writes them on every commit, fetch, reset,
//     merge or rebase, so a new reflog or a gone ORIG_HEAD is routine.
//     What they are is not the coder's: git opens each through the path,
//     following a symbolic link, when it next appends a reflog line,
//     fetches or resets, so a link (or a directory of logs/ turned into
//     one, a fifo that hangs git) sends the person's next git write to a
//     file of the coder's choosing; each path's type, and a link's text,
//     is compared. And what they point to is the person's next landing
//     place: `git reset --hard ORIG_HEAD` or `git merge FETCH_HEAD` puts
//     the commit they name into the work tree, `@{1}` and `git checkout -`
//     read the reflog. So a FETCH_HEAD or ORIG_HEAD whose content changed,
//     a reflog rewritten (not only appended to), and reflog lines appended
//     that point at an object the coder made (Dirs.Made) are named, with
//     the object ids they now point to. COMMIT_EDITMSG's content is not
//     compared (git rewrites it on every commit and runs nothing of it).
//   - by type and content: sharedindex.*, the shared part of a split
//     index. The main index names one by the hash in its trailer, which
//     git reads and does not check against the content (only fsck
//     does), so one overwritten with other entries and the same trailer
//     and size is taken; its content is compared by hash (while the
//     budget lasts; after, its size and identity), not its times (git
//     freshens them whenever it reads it). A new one, one gone (an index
//     linking to it can no longer be read: undo's start index included),
//     one changed, and one turned into a link or a fifo are named.
//   - compared whole: everything else — MERGE_MSG, lfs/, rr-cache/, a
//     reftable/ in a repository that does not use one (git 2.45 and later
//     may read it), a lock left behind, a name git has not invented yet.
package gitrest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// skipped are the top-level entries not stamped at all.
var skipped = []string{"objects", "refs", "index", "HEAD", "packed-refs", "config", "hooks", "info", "modules",
	"worktrees", "description", "shallow", "commondir", "config.worktree"}

// byKind are the top-level entries stamped by type only.
var byKind = []string{"logs", "FETCH_HEAD", "ORIG_HEAD", "COMMIT_EDITMSG"}

// what says what some entries are, for the report.
var what = map[string]string{
	"MERGE_MSG":      "your next `git commit` takes it as its message",
	"SQUASH_MSG":     "your next `git commit` takes it as its message",
	"MERGE_MODE":     "how your next `git commit` finishes a merge",
	"AUTO_MERGE":     "the tree of a merge in progress",
	"lfs":            "git LFS's objects and settings: checkout writes their content into your files",
	"rr-cache":       "git rerere's recorded resolutions: git replays them into your files on the next conflict",
	"reftable":       "a reftable stack in a repository that does not use one: git 2.45 and later may read refs from it",
	"branches":       "an old way of naming remotes: git fetch and pull read it",
	"remotes":        "an old way of naming remotes: git fetch and pull read it",
	"REBASE_HEAD":    "the commit a stopped rebase was applying",
	"logs":           "a reflog is no longer a plain file: your next commit, checkout or reset appends to what it names",
	"FETCH_HEAD":     "no longer a plain file: your next `git fetch` writes to what it names",
	"ORIG_HEAD":      "no longer a plain file: your next `git reset`, merge or rebase writes to what it names",
	"COMMIT_EDITMSG": "no longer a plain file: your next `git commit` writes its message to what it names",
}

// MaxPaths bounds how many paths of the rest are stamped; MaxBytes is the
// usual bound on how much of their content is hashed (past it, a file is
// stamped by size, modification time and identity).
const (
	MaxPaths = 50000
	MaxBytes = 64 << 20
)

// Dirs are the git dirs whose rest is compared: a repository's, and its
// common dir in a linked worktree (the same, or "", otherwise). Reftable
// says the repository's refs were a reftable stack at the start.
type Dirs struct {
	GitDir, Common string
	Reftable       bool
	// Made says whether an object id is one the coder made (not in the
	// person's object store); nil when that is not known, and then only
	// a changed FETCH_HEAD or ORIG_HEAD or a rewritten reflog is named.
	Made func(id string) bool
}

// Rest is the rest of one or two git dirs at a moment: a stamp by path.
type Rest struct {
	stamps map[string]string
	over   bool // more than MaxPaths paths: only the first were stamped
}

// Len is how many paths r stamped.
func (r *Rest) Len() int { return len(r.stamps) }

func (d Dirs) list() []string {
	if d.GitDir == "" {
		return nil
	}
	out := []string{filepath.Clean(d.GitDir)}
	if d.Common != "" && filepath.Clean(d.Common) != out[0] {
		out = append(out, filepath.Clean(d.Common))
	}
	return out
}

func (d Dirs) common() string {
	if d.Common == "" {
		return filepath.Clean(d.GitDir)
	}
	return filepath.Clean(d.Common)
}

// kind is how the top-level entry name of the git dir dir is stamped:
// "skip", "kind" or "" (whole).
func (d Dirs) kind(dir, name string) string {
	switch {
	case slices.Contains(skipped, name) || gitdir.LaterName(name):
		return "skip"
	case strings.HasPrefix(name, "sharedindex."):
		return "shared"
	case slices.Contains(byKind, name):
		return "kind"
	case name == "reftable" && d.Reftable && dir == d.common():
		return "skip"
	case name == "gitdir" && dir != d.common(): // a linked worktree's pointer back (read-only)
		return "skip"
	}
	return ""
}

// Snap stamps the rest of d now, hashing at most budget bytes of content.
func Snap(d Dirs, budget int64) *Rest {
	r := &Rest{stamps: map[string]string{}}
	left := budget
	for _, dir := range d.list() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			r.stamps[dir] = "unreadable: " + err.Error()
			continue
		}
		for _, e := range entries {
			k := d.kind(dir, e.Name())
			if k == "skip" {
				continue
			}
			_ = filepath.WalkDir(filepath.Join(dir, e.Name()), func(p string, de fs.DirEntry, err error) error {
				if len(r.stamps) >= MaxPaths {
					r.over = true
					return filepath.SkipAll
				}
				switch {
				case err != nil:
					r.stamps[p] = "unreadable"
				case k == "kind" && e.Name() != "COMMIT_EDITMSG" && de.Type().IsRegular():
					r.stamps[p] = stamp(p, de, &left) // what it points to: see pointsLine
				case k == "shared" && de.Type().IsRegular():
					r.stamps[p] = sharedStamp(p, de, &left)
				case k == "kind" || k == "shared":
					r.stamps[p] = kindStamp(p, de)
				default:
					r.stamps[p] = stamp(p, de, &left)
				}
				return nil
			})
		}
	}
	return r
}

// kindStamp is a path's type (a plain file or directory reads the same
// whatever it holds), and a link's text.
func kindStamp(p string, d fs.DirEntry) string {
	switch t := d.Type(); {
	case t.IsDir():
		return "dir"
	case t&fs.ModeSymlink != 0:
		l, _ := os.Readlink(p)
		return "link " + l
	case t.IsRegular():
		return "file"
	default:
		return "special " + t.String()
	}
}

// stamp is one path's stamp: its type and mode, and a regular file's
// size and content hash (while the budget lasts; its modification time
// and identity after, which no program can set back), a link's target.
func stamp(p string, d fs.DirEntry, left *int64) string {
	fi, err := d.Info()
	if err != nil {
		return "unreadable"
	}
	switch {
	case fi.IsDir():
		return "dir " + fi.Mode().String()
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(p)
		return "link " + t
	case !fi.Mode().IsRegular():
		return "special " + fi.Mode().String()
	}
	s := fmt.Sprintf("file %s %d", fi.Mode(), fi.Size())
	if fi.Size() > *left {
		return s + " " + fi.ModTime().UTC().String() + identity(fi)
	}
	f, err := nofollow.OpenFile(p, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return s + " unreadable"
	}
	defer f.Close()
	h := sha256.New()
	n, _ := io.Copy(h, io.LimitReader(f, fi.Size()))
	*left -= n
	return s + " " + hex.EncodeToString(h.Sum(nil))
}

// sharedStamp is a shared index's stamp: its content hash while the
// budget lasts (git freshens its times when it reads it, so they are not
// compared), its size and identity after (an overwrite in place of the
// same size then passes: the budget's bound).
func sharedStamp(p string, d fs.DirEntry, left *int64) string {
	s := stamp(p, d, left)
	if fi, err := d.Info(); err == nil && fi.Size() > *left && strings.Contains(s, " dev ") {
		st, _ := filestamp.Of(fi)
		return fmt.Sprintf("file %s %d dev %d ino %d", fi.Mode(), fi.Size(), st.Dev, st.Ino)
	}
	return s
}

// identity is what of a file no program can set back: its device, inode
// and change time (a write, a chmod or a touch -r moves it; a file moved
// over it has another inode); "" where the system gives none.
func identity(fi fs.FileInfo) string {
	s, ok := filestamp.Of(fi)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" dev %d ino %d ctime %d.%09d", s.Dev, s.Ino, s.CtimeSec, s.CtimeNsec)
}

// Changes are the lines that name what changed in the rest of d between
// before and now: each new, changed or gone path, a new directory once
// with how many entries it holds, at most max of them; n is how many
// there are. Names go through textsafe.Line (the coder chose them).
func Changes(d Dirs, before, now *Rest, max int) (lines []string, n int) {
	var paths []string
	for p := range now.stamps {
		if before.stamps[p] != now.stamps[p] {
			paths = append(paths, p)
		}
	}
	for p := range before.stamps {
		if _, ok := now.stamps[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	var out []string
	newDir := ""
	inNew := 0
	flush := func() {
		if newDir != "" && inNew > 0 {
			out[len(out)-1] += fmt.Sprintf(" (%d entries in it)", inNew)
		}
		newDir, inNew = "", 0
	}
	for _, p := range paths {
		if newDir != "" && within(p, newDir) {
			inNew++
			continue
		}
		flush()
		b, had := before.stamps[p]
		a, has := now.stamps[p]
		top := d.top(p)
		if had && has && slices.Contains(byKind, top) && strings.HasPrefix(b, "dir") && strings.HasPrefix(a, "dir") {
			continue
		}
		if slices.Contains(byKind, top) && !has && (strings.HasPrefix(b, "file") || b == "dir") {
			continue // a gone ORIG_HEAD or reflog: routine
		}
		if slices.Contains(byKind, top) && !had && a == "dir" {
			continue // a new directory of reflogs: its files are judged one by one
		}
		if slices.Contains(byKind, top) && top != "COMMIT_EDITMSG" && strings.HasPrefix(a, "file") && (!had || strings.HasPrefix(b, "file")) {
			if line := d.pointsLine(p, top, b, had); line != "" {
				out = append(out, line)
			}
			continue
		}
		if top == "COMMIT_EDITMSG" && (!had && a == "file" || had && a == b) {
			continue
		}
		line, shown := "", textsafe.Line(p)
		switch {
		case !had:
			line = "new " + shown
			if strings.HasPrefix(a, "dir") {
				line += "/"
				newDir = p
			}
		case !has:
			line = "gone " + shown
		case strings.HasPrefix(b, "dir ") && strings.HasPrefix(a, "dir "):
			line = "mode changed " + shown
		default:
			line = "changed " + shown
		}
		if slices.Contains(byKind, top) && strings.HasPrefix(a, "link ") {
			line += " (a symbolic link to " + textsafe.Line(strings.TrimPrefix(a, "link ")) + ")"
		}
		if w, ok := what[top]; ok {
			line += " — " + w
		}
		if strings.HasPrefix(top, "sharedindex.") {
			line += " — the shared part of a split index: an index that links to it takes its entries from it"
		}
		out = append(out, line)
	}
	flush()
	n = len(out)
	if len(out) > max {
		out = append(out[:max], fmt.Sprintf("and %d more", len(out)-max))
	}
	if now.over || before.over {
		out = append(out, fmt.Sprintf("(more than %d paths in the git dir outside what a commit writes: only the first were compared)", MaxPaths))
	}
	return out, n
}

// top is the top-level entry of a git dir of d that p lies in.
func (d Dirs) top(p string) string {
	for _, dir := range d.list() {
		if within(p, dir) && p != dir {
			rel, _ := filepath.Rel(dir, p)
			return strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
		}
	}
	return ""
}

func within(p, root string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}
