package runner

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A repository under the place with no commit yet (a fresh `git init
// app`) cannot be recorded: git will not add a folder holding one ("'app/'
// does not have a commit checked out"), and leaving it out would lose what
// is in it from the record and the report. So an in-place run refuses
// before it acts, in one line that names the repository and the fix.

// emptyNestedRepo is the refusal for the first repository under the place
// (not the place's own) whose HEAD names no commit, nil when there is none.
func (w *Workspace) emptyNestedRepo(ctx context.Context) error {
	for _, d := range w.guard.scan.Dirs {
		if filepath.Base(d) != ".git" {
			continue // a bare repository or a module's git dir: git adds no work tree of it
		}
		wt := filepath.Dir(d)
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
