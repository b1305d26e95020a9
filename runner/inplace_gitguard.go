package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/slowtell"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// gitGuard holds, for one in-place run, what the place's git dirs were at
// the start and what the coder may not add: a git dir or pointer that
// appears during the run anywhere under the place (git init vendor/lib, a
// .git file naming a directory the coder wrote, a commondir or
// config.worktree at the top of the project's git dir, a new entry in its
// worktrees/) is moved at once into Quarantine, in Sentinel's state dir,
// not deleted, and named at the end of the run (watch and sweep,
// inplace_gitwatch.go). A git dir or pointer present at the start is
// mounted read-only (inplace_profile.go) and cannot move.
type gitGuard struct {
	p    *Project
	scan gitScan
	// had: which of inPlaceGitPlanted the project's git dir had at the start.
	had map[string]bool
	// common is the project's common git dir as it was at the start (a
	// repointed commondir must not move what the guard looks at).
	common string
	// worktrees: the common dir's worktrees/ entries at the start.
	worktrees map[string]bool
	// startDirs are the place's other directories at the start: one that
	// becomes a git dir by content loses its HEAD, not its files.
	startDirs map[string]bool
	// Quarantine is where what the coder planted goes (made when needed).
	Quarantine string
	mover      gitdir.Mover // moves into it (a test's fails its renames)
	// refs are the project's refs at the start (inplace_refs.go); refsErr
	// says why there are none.
	refs    *refState
	refsErr error
	// later is the run-later state of the project's git dir at the start
	// (inplace_later.go).
	later *gitdir.Later
	// laterMu keeps the watch's and the end's take-outs apart; refsChanged,
	// set by start, is what the watch calls when packed-refs or a reftable
	// stack changes (a replace ref written there is deleted at once).
	laterMu     sync.Mutex
	refsChanged func()
	// laterRewritten, set by start, is what the watch calls when a
	// run-later state may have been rewritten (inplace_laterlive.go).
	laterRewritten func()
	// reftable: the repository's refs were a reftable stack at the start;
	// rest is the rest of its git dir then (inplace_gitrest.go).
	reftable bool
	rest     *gitRest
	// agentState are the names in the git dir the run's agent keeps its
	// own state under (inplace_agentstate.go).
	agentState []string
	// unlisted: what the last sweep could not list, and why it could
	// not look at all (inplace_unlisted.go).
	unlisted []string
	scanErr  error
	// warned are the end's lines about the git dir that no list of
	// InPlaceChanged holds (what the coder changed there that no commit
	// writes, where it could not look): kept for the terminal's last
	// words (InPlaceChanged.GitDir), which still reach the person when
	// the journal cannot be written.
	warned []string
	// commits are the coder's ordinary commits on the checked-out branch
	// by branch, counted at the end (gitrest.Commits) for its ref's line.
	commits map[string]int
	// Objects is the scratch object directory the coder's git writes new
	// objects to (objects.go); "" when the place is no repository.
	Objects string

	// configLinks are the symbolic links on the way to a config file git
	// includes, with their targets at the start (gitConfigIncludes). They
	// are found while the profile is built, after the watch has started
	// (the watch reads them as they come; the end sweep catches a link
	// re-pointed before they were known).
	configLinks atomic.Pointer[map[string]string]
	// made are the include files and hooks folders Sentinel made to hold
	// them read-only (inplace_placeholders.go).
	made placeholders

	// base is the git dirs and pointers the place had at the start, by
	// identity (device, inode): one found at another path was moved there
	// (its parent renamed), not made; it stays the person's.
	base *gitdir.Baseline

	mu    sync.Mutex
	moved []string          // "path (now in dest)"
	dst   map[string]string // path → where it was last quarantined
	stuck map[string]string // path → why it could not be moved out
	seq   int
}

// newGitGuard scans the place and remembers what is there. shadow is the
// run's shadow git dir: the quarantine and scratch object dir sit beside it.
func newGitGuard(p *Project, shadow string) (*gitGuard, error) {
	scan, err := scanGitDirs(p.Root, p.GitDir)
	if err != nil {
		return nil, fmt.Errorf("find the git repositories under %s: %w", p.Root, err)
	}
	g := &gitGuard{p: p, scan: scan, had: gitPlantedAtStart(p), worktrees: map[string]bool{}, startDirs: map[string]bool{}, stuck: map[string]string{}, Quarantine: shadow + ".quarantine"}
	for _, d := range scan.Watch {
		g.startDirs[d] = true
	}
	g.base = gitdir.NewBaseline(scan.Seen)
	if p.GitDir != "" {
		g.common = resolvedPath(p.commonDir())
		entries, _ := os.ReadDir(filepath.Join(g.common, "worktrees"))
		for _, e := range entries {
			g.worktrees[e.Name()] = true
		}
		g.refs, g.refsErr = gitdir.ReadRefs(p.GitDir, g.common)
		g.later = gitdir.SnapLater(p.GitDir, g.common)
		g.reftable = gitdir.IsReftable(g.common)
		g.rest = g.snapRest()
		g.Objects = shadow + ".objects"
		for _, d := range []string{"info", "pack"} {
			if err := os.MkdirAll(filepath.Join(g.Objects, d), 0o755); err != nil {
				return nil, fmt.Errorf("scratch object directory: %w", err)
			}
		}
	}
	return g, nil
}

// known says whether path is a git dir or pointer the place had at the
// start, or lies inside such a git dir.
func (g *gitGuard) known(path string) bool {
	if g.scan.Seen[path] {
		return true
	}
	g.mu.Lock()
	v, _, _ := g.base.Judge(path)
	g.mu.Unlock()
	if v == gitdir.Known || v == gitdir.Moved {
		return true // the person's, maybe moved with its parent
	}
	for d := range g.scan.Seen {
		if within(path, d) {
			return true
		}
	}
	return false
}

// quarantine moves path (under the place, or the project's git dirs, or
// the scratch object dir) into the quarantine and records it; it reports
// whether path was moved. The move is gitdir.MoveOut's: no link followed
// on the way, only the entry looked at now, and across file systems a
// whole copy before anything is removed. What cannot be moved stays, and
// is named at the end of the run (stuck).
func (g *gitGuard) quarantine(path string) bool {
	_, ok := g.quarantineTo(path)
	return ok
}

// quarantineTo is quarantine, also saying where path went.
func (g *gitGuard) quarantineTo(path string) (string, bool) {
	from := ""
	for _, r := range []string{g.p.Root, g.p.GitDir, g.common, g.Objects} {
		if r != "" && within(path, r) && path != r && len(r) > len(from) {
			from = r
		}
	}
	if from == "" {
		return "", false
	}
	id, err := gitdir.IDOf(path)
	g.mu.Lock()
	defer g.mu.Unlock()
	if errors.Is(err, fs.ErrNotExist) {
		return "", false // gone already
	}
	if err != nil { // unreadable is not gone: it stays, and is named
		g.stuck[path] = err.Error()
		return "", false
	}
	if err := os.MkdirAll(g.Quarantine, 0o700); err != nil {
		g.stuck[path] = err.Error()
		return "", false
	}
	g.seq++
	dst := filepath.Join(g.Quarantine, strconv.Itoa(g.seq)+"-"+strings.TrimPrefix(filepath.Base(path), "."))
	if err := g.mover.MoveOut(from, path, id, g.Quarantine, filepath.Base(dst)); err != nil {
		g.stuck[path] = err.Error()
		return "", false
	}
	delete(g.stuck, path)
	if g.dst == nil {
		g.dst = map[string]string{}
	}
	g.dst[path] = dst
	// git init makes a .git, and makes it again when the first was moved
	// out while it wrote: one path, listed once with each copy.
	head := path + " (now in "
	for i, m := range g.moved {
		if strings.HasPrefix(m, head) {
			g.moved[i] = strings.TrimSuffix(m, ")") + ", " + dst + ")"
			return dst, true
		}
	}
	g.moved = append(g.moved, head+dst+")")
	return dst, true
}

// Stuck names what the guard found and could not move out, each with why.
func (g *gitGuard) Stuck() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for p, why := range g.stuck {
		out = append(out, p+": "+why)
	}
	slices.Sort(out)
	return out
}

// start begins the watch (watch) and tells each quarantine through emit;
// it returns the stop.
func (g *gitGuard) start(ctx context.Context, emit func(journal.Lane, journal.Kind, string, any)) (stop func()) {
	g.refsChanged = func() { g.takeOut(ctx, emit, true) }
	g.laterRewritten = func() { g.takeOutRewritten(ctx, emit) }
	stop, warn := g.watch(ctx, func(p string) {
		if what, ok := g.laterTold(p); ok {
			emit(journal.System, KindError, what, nil)
			return
		}
		emit(journal.System, KindNotice, textsafe.Line("in place: moved "+p+" out of your project into "+g.Quarantine+" as soon as the coder made it (a git dir or pointer the coder makes would run its commands on your next git command)"), nil)
	})
	if warn != nil {
		emit(journal.System, KindNotice, "in place: cannot watch all of "+g.p.Root+" ("+warn.Error()+"); a git dir the coder makes where the watch cannot follow is looked for on a beat instead of at once", nil)
	}
	return stop
}

// finish ends the watch, sweeps the place, moves the coder's proven
// objects into the project, and names everything quarantined during the
// run (for the end-of-run summary).
func (g *gitGuard) finish(ctx context.Context, stop func(), emit func(journal.Lane, journal.Kind, string, any)) []string {
	if stop != nil {
		stop()
	}
	done := slowtell.Start(slowtell.After, func(took time.Duration) {
		emit(journal.System, KindNotice, "in place: looking through "+g.p.Root+" for git dirs the coder made ("+slowtell.Took(took)+" so far)", nil)
	})
	swept := g.sweep()
	done()
	for _, l := range g.unlistedLines() {
		emit(journal.System, KindError, l, nil)
		g.warn(l)
	}
	for _, p := range swept {
		emit(journal.System, KindNotice, textsafe.Line("in place: moved "+p+", which the coder made, out of your project into "+g.Quarantine+" (a git dir or pointer)"), nil)
	}
	g.takeOutLater(ctx, emit)
	g.tellRest(emit) // inplace_agentstate.go
	refused, err := g.migrateObjects(ctx)
	for _, r := range refused {
		emit(journal.System, KindNotice, "in place: kept the coder's object "+r+" out of your repository (quarantined in "+g.Quarantine+")", nil)
	}
	if err != nil {
		emit(journal.System, KindError, "in place: could not move the coder's new git objects into your repository ("+err.Error()+"); they are in "+g.Objects+", and its commits may be missing objects until you copy them in", nil)
	}
	if stuck := g.Stuck(); len(stuck) > 0 {
		emit(journal.System, KindError, fmt.Sprintf("in place: %d git dir(s) or pointer(s) the coder made could not be moved out of your project and are still there; run no git command in them until you have looked:\n%s", len(stuck), linesOf(stuck, "\n")), nil)
	}
	moved := g.Moved()
	if len(moved) > 0 {
		emit(journal.System, KindNotice, fmt.Sprintf("in place: %d git dir(s), pointer(s) or object(s) the coder made were quarantined, not deleted:\n%s", len(moved), linesOf(moved, "\n")), QuarantineNote{Quarantined: moved})
	}
	return moved
}

// warn keeps line for the end's summary (warned).
func (g *gitGuard) warn(line string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.warned = append(g.warned, line)
}

// Warned are the lines kept for the end's summary; none for a place
// without a guard.
func (g *gitGuard) Warned() []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.warned)
}

// Moved lists what was quarantined, each with where it is now.
func (g *gitGuard) Moved() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.moved)
}

// sweep finds, once the coder is gone (or when the watcher lost events),
// every git dir and pointer the place did not have at the start and
// quarantines it, and returns the paths it moved.
func (g *gitGuard) sweep() []string {
	var out []string
	if g.p.GitDir != "" {
		for _, n := range inPlaceGitPlanted {
			if f := filepath.Join(g.p.GitDir, n); !g.had[n] && g.quarantine(f) {
				out = append(out, f)
			}
		}
		entries, _ := os.ReadDir(g.commonWorktrees())
		for _, e := range entries {
			if f := filepath.Join(g.commonWorktrees(), e.Name()); !g.worktrees[e.Name()] && g.quarantine(f) {
				out = append(out, f)
			}
		}
	}
	out = append(out, g.sweepConfigLinks()...)
	now, err := scanGitDirsOpening(g.p.Root, g.p.GitDir, g.scan.Unlisted)
	g.noteUnlisted(now.Unlisted, err) // inplace_unlisted.go
	if err != nil && len(now.Dirs)+len(now.Pointers) == 0 {
		return out
	}
	// Pointers first: a new .git file goes, and what it names outside the
	// place is left alone.
	for _, p := range append(slices.Clone(now.Pointers), now.Dirs...) {
		if g.known(p) || !within(p, g.p.Root) {
			continue
		}
		if g.startDirs[p] || p == g.p.Root {
			p = filepath.Join(p, "HEAD")
		}
		if g.quarantine(p) {
			out = append(out, p)
		}
	}
	return out
}

// commonWorktrees is the common dir's worktrees/ ("" without a repository).
func (g *gitGuard) commonWorktrees() string {
	if g.p.GitDir == "" {
		return ""
	}
	return filepath.Join(g.common, "worktrees")
}
