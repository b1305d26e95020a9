package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// What in the project's git dir git acts on later without the person
// seeing it, though every object is genuine (gitdir.SnapLater): a replace
// ref (`git checkout -- Makefile` writes the replacement), info/grafts,
// shallow, and a left-over rebase, cherry-pick, revert, merge or bisect
// (the person's `git rebase --continue` runs its exec lines on the host;
// `--abort` resets hard to the orig-head the coder chose). refs/replace
// and info/ are read-only to the coder (gitProtected); at the end of the
// run what is new or changed of the rest is taken out: a file or
// directory moved into the quarantine, a replace ref written into
// packed-refs recorded there and deleted with git. Each is reported as
// dangerous, with where it went.

// takeOutLater takes out what git would act on later and tells it.
func (g *gitGuard) takeOutLater(ctx context.Context, emit func(journal.Lane, journal.Kind, string, any)) {
	g.takeOut(ctx, emit, false)
}

// takeOut is takeOutLater; refsOnly leaves entries with a path (files and
// directories) for later, and deals with replace refs git keeps in
// packed-refs or reftable only (the watch calls it when those change).
func (g *gitGuard) takeOut(ctx context.Context, emit func(journal.Lane, journal.Kind, string, any), refsOnly bool) {
	if g.later == nil {
		return
	}
	g.laterMu.Lock()
	defer g.laterMu.Unlock()
	for _, it := range g.later.Changed() {
		if it.Path != "" && refsOnly {
			continue
		}
		if it.Path != "" {
			if g.quarantine(it.Path) {
				emit(journal.System, KindError, textsafe.Line("in place: DANGEROUS: the coder left "+it.What+" — removed from your repository and kept in "+g.Quarantine+" (move it back only if you meant it)"), nil)
			} else {
				emit(journal.System, KindError, textsafe.Line("in place: DANGEROUS: the coder left "+it.What+", and it could not be moved out: remove "+it.Path+" before you run git there"), nil)
			}
			continue
		}
		kept := g.keepRef(it)
		if _, err := (gitCmd{dir: g.p.Root, env: []string{"GIT_DIR=" + g.p.GitDir}}).run(ctx, "update-ref", "--no-deref", "-d", it.Ref, it.ID); err != nil {
			emit(journal.System, KindError, textsafe.Line(fmt.Sprintf("in place: DANGEROUS: the coder made %s, and it could not be deleted (%v): run `git replace -d %s` before anything else", it.What, err, filepath.Base(it.Ref))), nil)
			continue
		}
		g.mu.Lock()
		g.moved = append(g.moved, it.Ref+" (deleted; recorded in "+kept+")")
		g.mu.Unlock()
		emit(journal.System, KindError, textsafe.Line("in place: DANGEROUS: the coder made "+it.What+" — deleted; to put it back: git update-ref "+it.Ref+" "+it.ID), nil)
	}
}

// keepRef records a ref about to be deleted in the quarantine and is the
// record's path.
func (g *gitGuard) keepRef(it gitdir.LaterItem) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := os.MkdirAll(g.Quarantine, 0o700); err != nil {
		return "(not recorded: " + err.Error() + ")"
	}
	g.seq++
	p := filepath.Join(g.Quarantine, strconv.Itoa(g.seq)+"-"+strings.ReplaceAll(it.Ref, "/", "_"))
	if err := os.WriteFile(p, []byte(it.ID+" "+it.Ref+"\n"), 0o600); err != nil {
		return "(not recorded: " + err.Error() + ")"
	}
	return p
}
