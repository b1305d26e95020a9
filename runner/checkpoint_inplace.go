package runner

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/internal/slowtell"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// The checkpoint of an in-place run (runner/checkpoint): before the coder
// acts, every file of the place — tracked, untracked and ignored — is
// recorded in the user's state dir; at the end the place is recorded
// again, and the difference is the run's change report. `sentinel undo`
// (undo.go) puts the place back from the two.

// Journal kinds of checkpoints (system lane).
const (
	KindCheckpoint journal.Kind = "checkpoint" // CheckpointTaken
	KindUndone     journal.Kind = "undone"     // UndoDone: the run's changes were undone
)

// CheckpointTaken is the data of a checkpoint event.
type CheckpointTaken struct {
	ID         string   `json:"id"`
	Entries    int      `json:"entries"`
	Bytes      int64    `json:"bytes"`
	Read       int      `json:"read"`
	TookMS     int64    `json:"took_ms"`
	NotCovered []string `json:"not_covered,omitempty"` // the first few, with why
}

// inPlaceCheckpoint is an in-place run's checkpoint of its place.
type inPlaceCheckpoint struct {
	// refuse, when set, is why the coder must not start (unshareOutside
	// failed, or a stop came during the record); nothing else is set.
	refuse error
	store  *checkpoint.Store
	rec    *checkpoint.Record
	before *checkpoint.Manifest
	// envrcLoads: the files the person's .envrc files load, read at the
	// start (inplace_envrc.go).
	envrcLoads envrcReads
	// reads: the files the person's makefiles include or run make on,
	// and the folders of the place on the person's PATH, read at the same
	// time (inplace_makeinc.go).
	reads placeflags.Reads

	lim checkpoint.Limits // the person's bounds ([exec] checkpoint_*), for every point
	// tellAfter is how long end's recording runs before it is told
	// (slowtell.After; 0, at once, in a test).
	tellAfter time.Duration

	gitDir string // the project's git dir ("" without git), whose index is kept

	mu    sync.Mutex // over rec, calls and ended: tool calls checkpoint concurrently
	calls callPoints // points before single tool calls (checkpoint_percall.go)
	ended bool
}

// checkpointSkip are Sentinel's own directories that a place may hold
// (exec in the home directory): the state dir and the agents' per-run
// state, which change during every run.
func checkpointSkip() []string { return checkpoint.OwnDirs() }

// ErrStoppedBeforeCoder is a stop (SIGINT, SIGTERM, SIGHUP) that came
// while the first record of the place was being taken: the record is
// abandoned (nothing of it is saved for undo to trust) and the coder
// never starts.
var ErrStoppedBeforeCoder = errors.New("stopped while recording the place, before the coder started: nothing ran, no checkpoint was kept (nothing to undo)")

// stoppedBy is a context that stop's closing cancels; done releases it.
func stoppedBy(stop <-chan struct{}) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	if stop == nil {
		return ctx, cancel
	}
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// takeInPlaceCheckpoint records the place before run id acts on it. A
// checkpoint that cannot be taken is told, not fatal: the run goes on, and
// nothing counts as covered. ctx ending while it records (a stop) refuses
// the run with ErrStoppedBeforeCoder.
func takeInPlaceCheckpoint(ctx context.Context, p *Project, id, task string, lim checkpoint.Limits, emit func(journal.Lane, journal.Kind, string, any)) *inPlaceCheckpoint {
	return takeInPlaceCheckpointTelling(ctx, p, id, task, lim, slowtell.After, emit)
}

// takeInPlaceCheckpointTelling is takeInPlaceCheckpoint telling a step
// that runs longer than tellAfter (0: at once, in a test).
func takeInPlaceCheckpointTelling(ctx context.Context, p *Project, id, task string, lim checkpoint.Limits, tellAfter time.Duration, emit func(journal.Lane, journal.Kind, string, any)) *inPlaceCheckpoint {
	s, err := checkpoint.Open(p.Root)
	var m *checkpoint.Manifest
	if err == nil {
		done := slowtell.Start(tellAfter, func(took time.Duration) {
			emit(journal.System, KindNotice, "in place: taking a checkpoint of "+p.Root+" before the coder acts ("+slowtell.Took(took)+" so far; a big folder takes a while)", nil)
		})
		m, err = checkpoint.Take(s, p.Root, checkpoint.Options{Limits: lim, Prev: s.Latest(), Skip: checkpointSkip(), OpenUnlistable: true, Ctx: ctx})
		done()
		if err != nil && ctx.Err() != nil {
			// Stop means stop: the record's blobs are unreferenced (the
			// next prune drops them); no manifest, no record is saved.
			return &inPlaceCheckpoint{refuse: ErrStoppedBeforeCoder}
		}
	}
	if err == nil {
		m, err = unshareOutside(s, p.Root, m, lim, emit)
		if err != nil {
			return &inPlaceCheckpoint{refuse: err}
		}
	}
	rec := &checkpoint.Record{ID: id, Kind: "exec", Place: p.Root, Task: task, Started: time.Now().UTC()}
	var indexSum [sha256.Size]byte
	if err == nil {
		rec.NotCovered = len(m.NotCovered())
		if err = s.SaveManifest(id, "before", m); err == nil {
			err = s.SaveRecord(rec)
		}
		if err == nil && p.GitDir != "" {
			indexSum, err = saveIndex(s, id, p.GitDir, indexBefore)
		}
	}
	if err != nil {
		emit(journal.System, KindNotice, "in place: no checkpoint ("+err.Error()+"); 'sentinel undo' cannot put this run's changes back", nil)
		return nil
	}
	d := CheckpointTaken{ID: id, Entries: len(m.Entries), Bytes: m.Bytes, Read: m.Read, TookMS: m.Took}
	for _, e := range m.NotCovered() {
		if len(d.NotCovered) == 10 {
			d.NotCovered = append(d.NotCovered, fmt.Sprintf("and %d more", rec.NotCovered-10))
			break
		}
		d.NotCovered = append(d.NotCovered, textsafe.Line(e.Path)+" ("+e.Skip+")") // a name is bytes: one line
	}
	text := fmt.Sprintf("in place: checkpoint of %d entries (%s) in %dms; 'sentinel undo %s' puts the place back", len(m.Entries), byteSize(m.Bytes), m.Took, id)
	if len(d.NotCovered) > 0 {
		text += "\nnot covered (undo cannot bring these back): " + strings.Join(d.NotCovered, ", ")
	}
	emit(journal.System, KindCheckpoint, text, d)
	c := &inPlaceCheckpoint{store: s, rec: rec, before: m, lim: lim, tellAfter: tellAfter, gitDir: p.GitDir,
		envrcLoads: envrcLoads(p.Root, m), reads: placeReads(p.Root, m)}
	c.calls.index, c.calls.indexSum = indexBefore, indexSum
	return c
}

// end records the place as the run left it and is every change since the
// checkpoint, with the two manifests; emit hears a long recording. When the
// place was recorded but the record could not be saved (a coder that filled
// the file system the state dir is on), the changes come back with the
// error: the comparison is in memory and must still be told.
//
// stopped, when closed, ends a record in progress (a stop asked for while
// it runs): it returns the context's error and nothing is compared.
func (c *inPlaceCheckpoint) end(stopped <-chan struct{}, emit func(journal.Lane, journal.Kind, string, any)) ([]checkpoint.Change, *checkpoint.Manifest, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
	done := slowtell.Start(c.tellAfter, func(took time.Duration) {
		emit(journal.System, KindNotice, "in place: recording what the run changed in "+c.rec.Place+" ("+slowtell.Took(took)+" so far)", nil)
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	select {
	case <-stopped: // stopped before the record began: it does not begin
		cancel()
	default:
	}
	go func() {
		select {
		case <-stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	after, err := checkpoint.Take(c.store, c.rec.Place, checkpoint.Options{Prev: c.before, Listable: c.before, Skip: checkpointSkip(), Ctx: ctx})
	done()
	if err != nil {
		return nil, nil, err
	}
	changes := checkpoint.Diff(c.before, after)
	if err := c.saveAfter(after); err != nil {
		c.rec.HasAfter = false
		return changes, after, err
	}
	if l, err := lockRun(c.store.Dir); err == nil { // an undo at work: prune next time
		_ = c.store.Prune(checkpoint.DefaultKeep)
		l.release()
	}
	return changes, after, nil
}

// saveAfter saves the record of the place after the run: its manifest,
// the git index, and the record marked as having them.
func (c *inPlaceCheckpoint) saveAfter(after *checkpoint.Manifest) error {
	if err := c.store.SaveManifest(c.rec.ID, "after", after); err != nil {
		return err
	}
	if c.gitDir != "" {
		if _, err := saveIndex(c.store, c.rec.ID, c.gitDir, indexAfter); err != nil {
			return err
		}
	}
	c.rec.HasAfter, c.rec.Ended = true, time.Now().UTC()
	return c.store.SaveRecord(c.rec)
}

// CheckpointCovers says whether the in-place checkpoint taken before the
// coder acted can put the project-relative path rel back completely (it
// was there, within the size bound, and so is all under it). False when
// there is no checkpoint, when rel did not exist, and for a run in a copy.
func (w *Workspace) CheckpointCovers(rel string) bool {
	if w == nil || w.checkpoint == nil {
		return false
	}
	rel = filepath.ToSlash(filepath.Clean(rel))
	if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return false
	}
	return w.checkpoint.before.Covers(rel)
}

// CheckpointCovers is the run's Workspace.CheckpointCovers: for the
// policy's in-place context, whether deleting or overwriting rel can be
// undone. False for a run in a copy and before the workspace exists.
func (r *Run) CheckpointCovers(rel string) bool { return r.ws.CheckpointCovers(rel) }

// Bounds on what one in-place report journals: an install in place can
// change a hundred thousand ignored files.
const (
	maxChangeLines = 2000
	maxFlagNotices = 50
)

// withCheckpoint adds to what git saw changed what only the checkpoint
// sees (ignored files, modes, empty directories), and flags every change
// that runs code later.
func withCheckpoint(ch InPlaceChange, changes []checkpoint.Change, before, after *checkpoint.Manifest) InPlaceChange {
	inGit := map[string]bool{}
	for _, f := range ch.Files {
		inGit[f] = true
	}
	var more []string
	for i, c := range changes {
		switch {
		case i < maxChangeLines:
			ch.Changes = append(ch.Changes, c.Line())
		case i == maxChangeLines:
			ch.Changes = append(ch.Changes, fmt.Sprintf("… and %d more", len(changes)-i))
		}
		if !inGit[c.Path] {
			inGit[c.Path] = true
			ch.Files = append(ch.Files, c.Path)
			more = append(more, " "+c.Line())
		}
	}
	sort.Strings(ch.Files)
	if len(more) > 0 {
		const most = 50
		if len(more) > most {
			more = append(more[:most], fmt.Sprintf(" … and %d more (see: sentinel show)", len(more)-most))
		}
		text := "changed besides what git shows (ignored files, modes, directories):\n" + strings.Join(more, "\n")
		if ch.Stat != "" {
			text = ch.Stat + "\n" + text
		}
		ch.Stat = text
	}
	ch.Flagged = mergeFlags(ch.Flagged, inPlaceFlags(changes, before, after))
	return ch
}

// mergeFlags is a then b, one flag a path: a path flagged in both keeps
// a's place and each reason (a new bin/git is a new executable and on the
// PATH the person's .envrc sets).
func mergeFlags(a, b []Flag) []Flag {
	at := map[string]int{}
	var out []Flag
	for _, f := range append(slices.Clip(a), b...) {
		i, seen := at[f.Path]
		switch {
		case !seen:
			at[f.Path] = len(out)
			out = append(out, f)
		default:
			for _, r := range strings.Split(f.Reason, " · ") { // a reason already joined is taken part by part
				if !slices.Contains(strings.Split(out[i].Reason, " · "), r) {
					out[i].Reason += " · " + r
				}
			}
		}
	}
	return out
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
