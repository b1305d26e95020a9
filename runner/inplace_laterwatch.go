package runner

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A replace ref the coder writes into packed-refs or a reftable stack (the
// refs/replace directory is a read-only mount, and a reftable repository
// has none) is deleted as soon as the watch sees the file change
// (storedRefsChanged), as at the end of the run (takeOutLater).
//
// A rebase, cherry-pick, revert, merge or bisect state that appears in the
// project's git dir during an in-place run (rebase-merge/, MERGE_HEAD,
// BISECT_LOG…) is moved into the quarantine as soon as the watch sees it
// (watch, created), not at the end of the run: the person may run `git
// rebase --continue` in another terminal while the coder works, and it
// would run the state's exec lines on the host. The guard cannot tell who
// made it: a rebase the coder starts in place fails, and so does one the
// person starts in the project during the run; either is named, with where
// it went, at once (review finding F2).

// laterDir says whether name, appearing in dir, is such a state: dir is
// the project's git dir, or its common dir in a linked worktree.
func (g *gitGuard) laterDir(dir, name string) bool {
	if g.p.GitDir == "" || !gitdir.LaterName(name) {
		return false
	}
	return dir == filepath.Clean(g.p.GitDir) || g.common != "" && dir == filepath.Clean(g.common)
}

// laterTold is the line that tells the quarantine of p, when p is such a
// state; it is described from where it went.
func (g *gitGuard) laterTold(p string) (string, bool) {
	if !g.laterDir(filepath.Dir(p), filepath.Base(p)) {
		return "", false
	}
	g.mu.Lock()
	dst := g.dst[p]
	g.mu.Unlock()
	what := gitdir.DescribeLater(filepath.Base(p), dst)
	return textsafe.Line("in place: DANGEROUS: " + what + " — appeared in " + p + " during the run and was moved at once into " + dst + " (if it was your own, in another terminal, move it back once the run is over)"), true
}

// storedRefsChanged says whether name, appearing in dir, is a new
// packed-refs or reftable stack of the project (git writes either aside
// and renames it into place): a replace ref there has no file of its own
// for refs/replace's read-only mount to stop, so it is looked for at once.
func (g *gitGuard) storedRefsChanged(dir, name string) bool {
	if g.p.GitDir == "" || g.common == "" {
		return false
	}
	if name != "packed-refs" && name != "tables.list" {
		return false
	}
	c, d := filepath.Clean(g.common), resolvedPath(dir)
	return name == "packed-refs" && d == c || name == "tables.list" && d == filepath.Join(c, "reftable")
}
