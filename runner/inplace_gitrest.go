package runner

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

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/nofollow"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The rest of the git dir: what an in-place run's other checks do not
// cover is compared whole between the start and the end, and every
// change is named in the end-of-run report, so that a name nobody thought
// of is reported rather than passed over. The routine entries are listed
// (gitRoutine): objects (proven in, inplace_objects.go), refs and
// packed-refs (inplace_refs.go), logs, the index (inplace_index.go), HEAD
// and the heads git writes on every commit, fetch or reset, the entries
// held read-only (hooks, config, info, modules, worktrees), what is taken
// out (the left-over rebase and merge states, shallow, commondir,
// config.worktree) and, in a repository whose refs are a reftable stack,
// reftable/. Anything else — MERGE_MSG, lfs/, rr-cache/, a reftable/ in a
// repository that does not use one (git 2.45 and later may read it), a
// lock left behind, a name git has not invented yet — is reported when
// new, changed or gone.

// gitRoutineNames are the routine top-level entries of a git dir.
var gitRoutineNames = []string{"objects", "refs", "logs", "index", "HEAD", "ORIG_HEAD", "FETCH_HEAD", "COMMIT_EDITMSG",
	"packed-refs", "config", "hooks", "info", "modules", "worktrees", "description", "shallow", "commondir", "config.worktree"}

// gitRestWhat says what some entries are, for the report.
var gitRestWhat = map[string]string{
	"MERGE_MSG":   "your next `git commit` takes it as its message",
	"SQUASH_MSG":  "your next `git commit` takes it as its message",
	"MERGE_MODE":  "how your next `git commit` finishes a merge",
	"AUTO_MERGE":  "the tree of a merge in progress",
	"lfs":         "git LFS's objects and settings: checkout writes their content into your files",
	"rr-cache":    "git rerere's recorded resolutions: git replays them into your files on the next conflict",
	"reftable":    "a reftable stack in a repository that does not use one: git 2.45 and later may read refs from it",
	"branches":    "an old way of naming remotes: git fetch and pull read it",
	"remotes":     "an old way of naming remotes: git fetch and pull read it",
	"REBASE_HEAD": "the commit a stopped rebase was applying",
}

// maxGitRest bounds how many paths of the rest are stamped, and
// maxGitRestBytes how much of their content is hashed (past it, a file is
// stamped by size and modification time).
const (
	maxGitRest      = 50000
	maxGitRestBytes = 64 << 20
)

// gitRest is the rest of one or two git dirs at a moment: a stamp by path.
type gitRest struct {
	stamps map[string]string
	over   bool // more than maxGitRest paths: the rest was not stamped
}

// gitRoutine says whether name, an entry of the git dir dir, is routine.
func (g *gitGuard) gitRoutine(dir, name string) bool {
	if slices.Contains(gitRoutineNames, name) || strings.HasPrefix(name, "sharedindex.") || gitdir.LaterName(name) {
		return true
	}
	switch name {
	case "reftable":
		return g.reftable && dir == g.common
	case "gitdir": // a linked worktree's pointer back (read-only); nothing in a main git dir
		return dir != g.common
	}
	return false
}

// restDirs are the git dirs whose rest is compared: the project's, and
// its common dir in a linked worktree.
func (g *gitGuard) restDirs() []string {
	if g.p.GitDir == "" {
		return nil
	}
	out := []string{filepath.Clean(g.p.GitDir)}
	if g.common != "" && g.common != out[0] {
		out = append(out, g.common)
	}
	return out
}

// snapRest stamps the rest of the git dirs now.
func (g *gitGuard) snapRest() *gitRest {
	r := &gitRest{stamps: map[string]string{}}
	left := int64(maxGitRestBytes)
	for _, dir := range g.restDirs() {
		entries, err := os.ReadDir(dir)
		if err != nil {
			r.stamps[dir] = "unreadable: " + err.Error()
			continue
		}
		for _, e := range entries {
			if g.gitRoutine(dir, e.Name()) {
				continue
			}
			_ = filepath.WalkDir(filepath.Join(dir, e.Name()), func(p string, d fs.DirEntry, err error) error {
				if len(r.stamps) >= maxGitRest {
					r.over = true
					return filepath.SkipAll
				}
				if err != nil {
					r.stamps[p] = "unreadable"
					return nil
				}
				r.stamps[p] = restStamp(p, d, &left)
				return nil
			})
		}
	}
	return r
}

// restStamp is one path's stamp: its type and mode, and a regular file's
// size and content hash (while the budget lasts; its modification time
// and identity after, which no program can set back), a link's target.
func restStamp(p string, d fs.DirEntry, left *int64) string {
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
		return s + " " + fi.ModTime().UTC().String() + restIdentity(fi) // inplace_gitrest_linux.go
	}
	f, err := nofollow.OpenFile(p, os.O_RDONLY|syscallNonblock, 0)
	if err != nil {
		return s + " unreadable"
	}
	defer f.Close()
	h := sha256.New()
	n, _ := io.Copy(h, io.LimitReader(f, fi.Size()))
	*left -= n
	return s + " " + hex.EncodeToString(h.Sum(nil))
}

// restChanges are the lines that name what changed in the rest since
// before: each new, changed or gone path, a new directory once with how
// many entries it holds, at most max of them; n is how many there are.
func (g *gitGuard) restChanges(before, now *gitRest, max int) (lines []string, n int) {
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
		n, has := now.stamps[p]
		line, shown := "", textsafe.Line(p) // the coder chose the name
		switch {
		case !had:
			line = "new " + shown
			if strings.HasPrefix(n, "dir ") {
				line += "/"
				newDir = p
			}
		case !has:
			line = "gone " + shown
		case strings.HasPrefix(b, "dir ") && strings.HasPrefix(n, "dir "):
			line = "mode changed " + shown
		default:
			line = "changed " + shown
		}
		if what, ok := gitRestWhat[g.restTop(p)]; ok {
			line += " — " + what
		}
		out = append(out, line)
	}
	flush()
	n = len(out)
	if len(out) > max {
		out = append(out[:max], fmt.Sprintf("and %d more", len(out)-max))
	}
	if now.over || before.over {
		out = append(out, fmt.Sprintf("(more than %d paths in the git dir outside what a commit writes: only the first were compared)", maxGitRest))
	}
	return out, n
}

// restTop is the top-level entry of a git dir that p lies in.
func (g *gitGuard) restTop(p string) string {
	for _, d := range g.restDirs() {
		if within(p, d) && p != d {
			rel, _ := filepath.Rel(d, p)
			return strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
		}
	}
	return ""
}
