package runner

import (
	"context"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// A rebase, cherry-pick, revert, merge or bisect state the person had at
// the start (MERGE_HEAD, rebase-merge/git-rebase-todo, sequencer/todo…)
// and the coder rewrites in place, or adds a file to, is taken out as soon
// as the watch sees the write, as one it creates is (laterDir): `git
// rebase --continue` in another terminal would run a planted exec line as
// much from a rewritten todo as from a new one. The watch follows the
// state directories the git dir holds at the start (laterStateDirs) and
// judges every write, rename and removal there and in the git dir itself
// (laterTouched); what changed is named as DANGEROUS with where it went.

// laterStateDirs are the state directories of the project's git dir (and
// of its common dir, in a linked worktree) that exist now.
func (g *gitGuard) laterStateDirs() []string {
	if g.p.GitDir == "" {
		return nil
	}
	var out []string
	for _, base := range []string{filepath.Clean(g.p.GitDir), g.common} {
		if base == "" {
			continue
		}
		for _, n := range []string{"rebase-merge", "rebase-apply", "sequencer"} {
			d := filepath.Join(base, n)
			if st, err := os.Lstat(d); err == nil && st.IsDir() {
				out = append(out, d)
			}
		}
	}
	return out
}

// laterTouched says whether a change at p (any event but a creation
// there, which created judges) may have changed a run-later state: p is
// such a state in the git dir (laterDir), the common dir's shallow, or an
// entry of a state directory.
func (g *gitGuard) laterTouched(p string) bool {
	if g.p.GitDir == "" {
		return false
	}
	dir, name := filepath.Dir(p), filepath.Base(p)
	if g.laterDir(dir, name) || g.laterDir(filepath.Dir(dir), filepath.Base(dir)) {
		return true
	}
	return name == "shallow" && g.common != "" && dir == g.common
}

// takeOutRewritten moves out every run-later state that changed since the
// start (gitdir.Later), now, and tells each.
func (g *gitGuard) takeOutRewritten(ctx context.Context, emit func(journal.Lane, journal.Kind, string, any)) {
	if g.later == nil {
		return
	}
	g.laterMu.Lock()
	defer g.laterMu.Unlock()
	for _, it := range g.later.Changed() {
		if it.Path == "" {
			continue // a replace ref: storedRefsChanged's and the end's
		}
		if dst, ok := g.quarantineTo(it.Path); ok {
			what := gitdir.DescribeLater(filepath.Base(it.Path), dst)
			emit(journal.System, KindError, textsafe.Line("in place: DANGEROUS: "+what+" — "+it.Path+" was changed during the run and was moved at once into "+dst+" (if it was your own, in another terminal, move it back once the run is over)"), nil)
		}
	}
}
