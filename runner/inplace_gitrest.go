package runner

import (
	"context"

	"github.com/sentinelhq/sentinel/internal/gitrest"
)

// The rest of the git dir (internal/gitrest): what an in-place run's other
// checks do not cover is stamped at the start and compared with the end,
// and every change is named in the end-of-run report. sentinel mcp
// compares it around each command with the same package.

type gitRest = gitrest.Rest

// restDirs are the git dirs whose rest is compared: the project's, and
// its common dir in a linked worktree.
func (g *gitGuard) restDirs() gitrest.Dirs {
	return gitrest.Dirs{GitDir: g.p.GitDir, Common: g.common, Reftable: g.reftable, Made: g.madeByCoder}
}

// madeByCoder says whether id is an object the coder's git wrote during
// the run: in the scratch object dir, not in the person's store. It holds
// until the end of the run moves the coder's objects in, after the rest
// is compared (finish).
func (g *gitGuard) madeByCoder(id string) bool {
	if g.Objects == "" || g.common == "" {
		return false
	}
	ctx := context.Background()
	has := func(env ...string) bool {
		_, err := (gitCmd{dir: g.common, env: append([]string{"GIT_DIR=" + g.common, "GIT_NO_REPLACE_OBJECTS=1"}, env...)}).run(ctx, "cat-file", "-e", id)
		return err == nil
	}
	return has("GIT_OBJECT_DIRECTORY="+g.Objects) && !has()
}

// snapRest stamps the rest of the git dirs now.
func (g *gitGuard) snapRest() *gitRest { return gitrest.Snap(g.restDirs(), gitrest.MaxBytes) }

// restChanges are the lines that name what changed in the rest since
// before, at most max of them; n is how many there are.
func (g *gitGuard) restChanges(before, now *gitRest, max int) (lines []string, n int) {
	return gitrest.Changes(g.restDirs(), before, now, max)
}
