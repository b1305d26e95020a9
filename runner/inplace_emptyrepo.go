package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A repository under the place with no commit yet (a fresh `git init
// app`) cannot be recorded: git will not add a folder holding one ("'app/'
// does not have a commit checked out"), and leaving it out would lose what
// is in it from the record and the report. So an in-place run refuses
// before it acts, in one line that names the repository and the fix.

// emptyNestedRepo is the refusal for the first repository under the place
// (not the place's own) whose HEAD names no commit, nil when there is none.
// A work tree is a folder holding a .git directory or a .git file (a
// "gitdir: PATH" pointer: a linked worktree, a submodule, `git init
// --separate-git-dir`), whatever the git dir it points to is named.
func (w *Workspace) emptyNestedRepo(ctx context.Context) error {
	var trees []string
	for _, d := range w.guard.scan.Dirs {
		if filepath.Base(d) == ".git" {
			trees = append(trees, filepath.Dir(d)) // a bare repository or a module's git dir has no work tree here
		}
	}
	for _, p := range w.guard.scan.Pointers {
		if _, ok := gitdir.FileTarget(p); ok || isLink(p) {
			trees = append(trees, filepath.Dir(p))
		}
	}
	for _, wt := range trees {
		if wt == w.Dir || !within(wt, w.Dir) {
			continue
		}
		if _, err := (gitCmd{dir: wt}).line(ctx, "rev-parse", "--verify", "-q", "HEAD^{commit}"); err == nil {
			continue
		}
		rel, _ := filepath.Rel(w.Dir, wt)
		return fmt.Errorf("%s is a git repository with no commit yet, and Sentinel cannot record a folder holding one (nothing was changed): make a first commit there (git -C %s commit --allow-empty -m 'first commit') or start sentinel in %s itself", textsafe.Line(wt), textsafe.Line(rel), textsafe.Line(rel))
	}
	return nil
}

func isLink(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode()&os.ModeSymlink != 0
}
