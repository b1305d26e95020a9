package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitindex"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// The in-place workspace stage (`sentinel exec`): the coder works in the
// person's project itself, not a copy, so there is nothing to verify,
// review or land. What the stage owns is the record of what changed: a
// tree of the project as it was at the start, taken through a shadow git
// dir in the user's state dir (never the project's own .git: the person's
// index, stash, refs and branch are never touched, and a project with no
// commits or no git at all works the same way), and at the end a diff stat
// against the project as the coder left it, untracked files included.
// Ignored files are in neither tree; the run's checkpoint
// (checkpoint_inplace.go) sees them, and every change it sees is added to
// the report.
//
// The sandbox side of in place (what stays hidden and read-only inside the
// real project) is inplace_profile.go.

// openInPlace makes run id's in-place workspace over the project and
// records its starting tree.
func openInPlace(ctx context.Context, p *Project, id string, emit func(journal.Lane, journal.Kind, string, any)) (Snapshot, *Workspace, error) {
	t0 := time.Now()
	shadow, err := shadowDir(p, id) // in the user's state dir, see shadow.go
	if err != nil {
		return Snapshot{}, nil, err
	}
	w := &Workspace{Dir: p.Root, Shadow: shadow, project: p, inPlace: true}
	if w.guard, err = newGitGuard(p, shadow); err != nil {
		return Snapshot{}, nil, err
	}
	if err := w.emptyNestedRepo(ctx); err != nil { // inplace_emptyrepo.go
		return Snapshot{}, nil, err
	}
	if w.agent, err = inPlaceAgentDir(id); err != nil {
		return Snapshot{}, nil, err
	}
	if err := os.MkdirAll(shadow+".policy", 0o700); err != nil {
		return Snapshot{}, nil, err
	}
	if err := w.initInPlaceShadow(ctx); err != nil {
		return Snapshot{}, nil, err
	}
	if err := w.recordIndex(); err != nil {
		return Snapshot{}, nil, fmt.Errorf("record the index: %w", err)
	}
	tree, err := w.inPlaceTree(ctx)
	if err != nil {
		return Snapshot{}, nil, fmt.Errorf("record the project as it is: %w", err)
	}
	snap := Snapshot{Commit: tree}
	if p.GitDir != "" {
		// The person's HEAD, for the record only (none in a repository
		// without commits).
		snap.Base, _ = gitCmd{dir: p.Root}.line(ctx, "rev-parse", "--verify", "-q", "HEAD^{commit}")
	}
	w.Snapshot = snap
	w.stopGitWatch = w.guard.start(ctx, emit)
	emit(journal.System, KindWorkspace, fmt.Sprintf("in place: the coder works in %s itself (no copy, no landing step); its state recorded in %s",
		p.Root, time.Since(t0).Round(time.Millisecond)), WorkspaceNote{Dir: p.Root, InPlace: true, Base: snap.Base, Tree: tree})
	return snap, w, nil
}

// inPlaceAgentDir is where a real agent's per-run state lives in place:
// the person's cache dir, outside the project (whose .sentinel/ the coder
// may not write) and outside the sandbox's private /tmp.
func inPlaceAgentDir(id string) (string, error) {
	if !ValidRunID(id) {
		return "", fmt.Errorf("%q is not a run id", id)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("agent state: no cache directory (%v); set XDG_CACHE_HOME", err)
	}
	dir := filepath.Join(base, "sentinel", "exec")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("agent state: %w", err)
	}
	return filepath.Join(dir, id+".agent"), nil
}

// initInPlaceShadow makes the shadow git dir that reads the project: it
// borrows the repository's objects (so unchanged files are not stored
// again) and starts from a copy of the person's index (so they are not
// re-hashed), and it ignores what the repository ignores plus .sentinel/.
func (w *Workspace) initInPlaceShadow(ctx context.Context) error {
	p := w.project
	if _, err := (gitCmd{dir: p.Root}).run(ctx, "init", "--quiet", "--bare", "--", w.Shadow); err != nil {
		return fmt.Errorf("create shadow git dir: %w", err)
	}
	exclude := "/.sentinel/\n"
	if p.GitDir != "" {
		if err := os.WriteFile(filepath.Join(w.Shadow, "objects", "info", "alternates"), []byte(p.ObjectsDir()+"\n"), 0o600); err != nil {
			return err
		}
		if b, err := os.ReadFile(filepath.Join(p.commonDir(), "info", "exclude")); err == nil {
			exclude += string(b) + "\n"
		}
		if err := copyFile(filepath.Join(p.GitDir, "index"), shadowIndex(w.Shadow)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("copy the index: %w", err)
		}
	}
	return os.WriteFile(filepath.Join(w.Shadow, "info", "exclude"), []byte(exclude), 0o600)
}

// inPlaceTree records the project as it is now (tracked and untracked
// files, not ignored ones) as a tree in the shadow git dir.
func (w *Workspace) inPlaceTree(ctx context.Context) (string, error) {
	return inPlaceTreeWith(ctx, w.shadowGit())
}

// inPlaceTreeWith is inPlaceTree through g, the shadow git dir's gitCmd.
func inPlaceTreeWith(ctx context.Context, g gitCmd) (string, error) {
	if _, err := g.run(ctx, "add", "-A", "--", "."); err != nil {
		return "", err
	}
	return g.line(ctx, "write-tree")
}

// InPlaceChange is what the coder changed in place.
type InPlaceChange struct {
	Files []string // changed paths, relative to the project
	Stat  string   // git's diff stat of them
	// Flagged are changed files that run code later (FlaggedFiles): with
	// no review before landing, the person must hear of them here.
	Flagged []Flag
	// Changes are every change the checkpoint saw, one line each
	// (checkpoint_inplace.go), ignored files included.
	Changes []string
}

// inPlaceChange compares the project now with its tree at the start.
func (w *Workspace) inPlaceChange(ctx context.Context) (InPlaceChange, error) {
	if w.Snapshot.Commit == "" {
		return InPlaceChange{}, errors.New("no record of the project at the start")
	}
	// The shadow git dir is Sentinel's and the coder has ended: nothing
	// writes its config between these commands, so one scan for drivers
	// serves the add and both diffs (gitCmd.scanned).
	g, err := w.shadowGit().scanned(ctx)
	if err != nil {
		return InPlaceChange{}, err
	}
	end, err := inPlaceTreeWith(ctx, g)
	if err != nil {
		return InPlaceChange{}, err
	}
	names, err := g.run(ctx, "diff-tree", "-r", "-z", "--name-only", "--no-renames", w.Snapshot.Commit, end)
	if err != nil {
		return InPlaceChange{}, err
	}
	var c InPlaceChange
	for _, n := range strings.Split(names, "\x00") {
		if n != "" {
			c.Files = append(c.Files, n)
		}
	}
	if len(c.Files) == 0 {
		return c, nil
	}
	stat, err := g.run(ctx, "diff-tree", "-r", "--stat=200", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", w.Snapshot.Commit, end)
	if err != nil {
		return InPlaceChange{}, err
	}
	c.Stat = strings.TrimRight(stat, "\n")
	c.Flagged = FlaggedFiles(c.Files, nil)
	return c, nil
}

// concludeInPlace ends an in-place run: no verification, review or
// landing, only the record of what changed, told as a diff stat.
func (r *endStage) concludeInPlace(ctx context.Context, end coderEnd) Result {
	if r.ws.guard != nil {
		r.ws.guard.agentState = agentGitDirState(r.adapter)
	}
	quarantined := r.ws.guard.finish(ctx, r.ws.stopGitWatch, r.emit)
	// What the adapter made in the place for the run (Gemini's empty
	// .gemini/ to hide) goes before the comparison: it is Sentinel's, not
	// a change of the coder's, and must not be reported or flagged as one.
	r.guard.cleanupAdapter()
	// So does what Sentinel made to hold read-only (inplace_placeholders.go).
	madeFlags := r.ws.guard.removePlaceholders()
	// Before the checkpoint keeps the index as the run left it: no cache
	// the coder's git wrote stays for the person's git to trust.
	// A split index is written whole first: the checks below read the
	// index file's own entries (gitindex/split.go).
	if split, serr := r.ws.unsplitIndex(ctx); serr != nil {
		r.emit(journal.System, KindError, "in place: "+serr.Error()+"; a file the coder marked skip-worktree or assume-unchanged may be hidden from git status: run `git update-index --no-split-index` and `git ls-files -v | grep -v '^H'`", nil)
	} else if split {
		r.emit(journal.System, KindNotice, "in place: your git index was split (its entries kept in .git/sharedindex.*); it was written whole again so that what the coder staged or marked in it is seen", nil)
	}
	caches, cerr := r.ws.dropIndexCaches()
	if cerr != nil {
		r.emit(journal.System, KindError, "in place: could not read the extensions of your git index ("+cerr.Error()+"); an untracked-files cache or fsmonitor record the coder's git wrote could hide a file from git status: run `git update-index --no-untracked-cache --no-fsmonitor`", nil)
	}
	forged, ferr := r.ws.clearForgedStat()
	if ferr != nil {
		r.emit(journal.System, KindError, "in place: could not check the stat records of your git index ("+ferr.Error()+"); a stat record the coder forged could hide a changed file of this report from git status (`touch FILE` makes git read it again)", nil)
	}
	ch, err := r.ws.inPlaceChange(ctx)
	ch, err, unreported := endCheckpoint(r.ws.checkpoint, r.id, r.stop.again(), ch, err, r.emit)
	ch.Flagged = mergeFlags(madeFlags, ch.Flagged)
	var told *InPlaceChanged
	if err != nil {
		r.emit(journal.System, KindError, "could not tell what changed in place: "+err.Error(), nil)
	} else {
		r.meta.Files = ch.Files
		told = &InPlaceChanged{Files: ch.Files, Stat: ch.Stat, Changes: ch.Changes, Quarantined: quarantined, Stuck: stuckOf(r.ws.guard), IndexCaches: caches, Flagged: ch.Flagged, GitDir: r.ws.guard.Warned()}
		moves, rerr := r.ws.guard.refMoves(ctx)
		if rerr != nil {
			r.emit(journal.System, KindNotice, "in place: could not compare the refs with the start ("+rerr.Error()+"); branch and tag moves are not in this report", nil)
		}
		told.Refs = moves
		staged, serr := r.ws.stagedChanges(ctx, ch.Files, forged)
		if serr != nil {
			r.emit(journal.System, KindNotice, "in place: could not compare the index with the start ("+serr.Error()+"); staged changes are not in this report: check `git diff --cached` before you commit", nil)
		}
		told.Staged = staged
		text := "in place: " + told.Headline("")
		if len(ch.Files) > 0 {
			text += " (already in your project; there is no landing step)"
		}
		text += told.Details()
		r.emit(journal.System, KindInPlaceChanged, text, *told)
		for _, m := range moves {
			switch {
			case m.Yours:
				r.emit(journal.System, KindNotice, "in place: the coder changed your "+m.String(), nil)
			case len(m.RunsLater) > 0 || m.Unreadable != "":
				r.emit(journal.System, KindNotice, "in place: the coder made "+m.String(), nil)
			}
		}
		for _, s := range staged {
			if s.Differs || s.Hidden || s.StatCleared {
				r.emit(journal.System, KindNotice, "in place: "+s.String(), nil)
			}
		}
		for i, f := range ch.Flagged {
			if i == maxFlagNotices {
				r.emit(journal.System, KindNotice, fmt.Sprintf("in place: and %d more changed files that run code later (see: sentinel show %s)", len(ch.Flagged)-i, r.id), nil)
				break
			}
			if strings.HasPrefix(f.Reason, dangerousPrefix) {
				r.emit(journal.System, KindError, textsafe.Line(fmt.Sprintf("in place: %s%s %s", dangerousPrefix, f.Path, strings.TrimPrefix(f.Reason, dangerousPrefix))), nil)
				continue
			}
			r.emit(journal.System, KindNotice, fmt.Sprintf("in place: %s changed and runs code later (%s): look at it before you use it", f.Path, f.Reason), nil)
		}
		r.tellCoderWroteState(ch)
	}
	if note := r.ws.checkpoint.pointsNote(); note != "" {
		r.emit(journal.System, KindNotice, note, nil)
	}
	res := failUnreported(r.inPlaceEnd(end), unreported)
	res.InPlace, res.Code = told, end.code
	return res
}

// inPlaceEnd is how an in-place run ended.
func (r *endStage) inPlaceEnd(end coderEnd) Result {
	if jerr := journalFailure(r.journal); jerr != nil {
		return Result{Status: StatusFailed, Err: jerr}
	}
	if err := r.guard.bypassFailure(); err != nil {
		return Result{Status: StatusFailed, Err: err}
	}
	switch {
	case end.interrupted:
		return Result{Status: StatusInterrupted, Err: fmt.Errorf("exec %s was interrupted", r.id)}
	case end.failed != nil:
		return Result{Status: StatusFailed, Err: end.failed}
	case end.code != 0:
		return Result{Status: StatusFailed, Err: fmt.Errorf("%s exited with status %d", r.adapter.Name(), end.code)}
	}
	return Result{Status: StatusDone}
}

// InPlaceChanged is the data of KindInPlaceChanged.
type InPlaceChanged struct {
	Files   []string `json:"files"`
	Stat    string   `json:"stat,omitempty"`
	Changes []string `json:"changes,omitempty"` // every change, ignored files included
	// Quarantined: git dirs, pointers and objects the coder made, moved
	// out of the project (gitGuard), each with where it is now.
	Quarantined []string `json:"quarantined,omitempty"`
	// Refs: branches, tags, HEAD and the stash as the coder left them,
	// each that differs from the start (inplace_refs.go).
	Refs []RefMove `json:"refs,omitempty"`
	// Staged: index entries that differ from the start (inplace_index.go).
	Staged []StagedChange `json:"staged,omitempty"`
	// Stuck: git dirs and pointers the coder made that could not be moved
	// out, each with why (gitGuard.Stuck).
	Stuck []string `json:"stuck,omitempty"`
	// IndexCaches: caches git trusts instead of looking (UNTR, FSMN) the
	// coder's git left in the index, removed (index_caches.go).
	IndexCaches []gitindex.Cache `json:"index_caches,omitempty"`
	// Flagged: the changed files that run code later, each with why; the
	// journal tells each on a line of its own, the terminal's last words
	// repeat them (FlagsText) — the one place they still reach the person
	// when the journal cannot be written.
	Flagged []Flag `json:"flagged,omitempty"`
	// GitDir: what the coder changed in the git dir that no commit,
	// checkout or fetch writes (a MERGE_MSG, an lfs/ store, ORIG_HEAD)
	// and where the end could not look for git dirs, each as the journal
	// tells it; the terminal's last words repeat them (GitDirText), as
	// they do Flagged.
	GitDir []string `json:"git_dir,omitempty"`
}

// FindInPlaceProject is the project `sentinel exec` works in from dir: the
// git top level when dir is in a repository (with or without commits),
// else dir itself.
func FindInPlaceProject(ctx context.Context, dir string) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if root, gitDir, inRepo, err := topLevelAndGitDir(ctx, gitCmd{dir: abs}); inRepo {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", abs, ErrNotRepo)
		}
		return &Project{Root: root, GitDir: gitDir}, nil
	}
	return &Project{Root: abs}, nil
}
