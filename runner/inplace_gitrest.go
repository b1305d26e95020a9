package runner

import "github.com/sentinelhq/sentinel/internal/gitrest"

// The rest of the git dir (internal/gitrest): what an in-place run's other
// checks do not cover is stamped at the start and compared with the end,
// and every change is named in the end-of-run report. sentinel mcp
// compares it around each command with the same package.

type gitRest = gitrest.Rest

// restDirs are the git dirs whose rest is compared: the project's, and
// its common dir in a linked worktree.
func (g *gitGuard) restDirs() gitrest.Dirs {
	return gitrest.Dirs{GitDir: g.p.GitDir, Common: g.common, Reftable: g.reftable}
}

// snapRest stamps the rest of the git dirs now.
func (g *gitGuard) snapRest() *gitRest { return gitrest.Snap(g.restDirs(), gitrest.MaxBytes) }

// restChanges are the lines that name what changed in the rest since
// before, at most max of them; n is how many there are.
func (g *gitGuard) restChanges(before, now *gitRest, max int) (lines []string, n int) {
	return gitrest.Changes(g.restDirs(), before, now, max)
}
