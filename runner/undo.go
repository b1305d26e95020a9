package runner

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/placelock"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// `sentinel undo`: put a place back as it was before an in-place run (or
// before an undo: an undo takes its own checkpoint first, so it can be
// undone too), from the run's checkpoint (checkpoint_inplace.go). Only what
// the run changed is put back; a path the person changed after the run
// ended is kept as it is (UndoReport.Changed) unless Force, and the rest
// is put back.

// UndoOptions say how to undo.
type UndoOptions struct {
	Force  bool // overwrite what the person changed since, or undo a run with no after-record
	DryRun bool // plan only
	// To, when above 0, puts the place back as it was just before the
	// run's tool call N (checkpoint_percall.go) instead of before the run.
	To int
}

// UndoReport is what an undo did (or, dry, would do).
type UndoReport struct {
	Undone *checkpoint.Record // the record undone
	ID     string             // the undo's own checkpoint id; empty for a dry run
	Steps  []string           // one line per path put back
	Cannot []string           // what the checkpoint cannot put back, and why
	Kept   []string           // what was left, and why
	Forced []string           // the person's later changes overwritten with Force
	// Copies are paths that were one file with a file outside the place
	// and came back as their own copy, each with why.
	Copies []string
	// Changed are the paths the person changed after the run ended, kept as
	// they are (without Force): the run is not marked undone, so
	// 'sentinel undo --force RUN' can still put them back.
	Changed []checkpoint.Conflict
	To      int // the tool call the place was put back before (0: the run)
	// Owners are the paths put back whose owner undo could not give back
	// (it is not root), one line each.
	Owners []string
}

// CheckpointRecords are the checkpoints of project p's place, newest first.
func CheckpointRecords(p *Project) ([]*checkpoint.Record, error) {
	s, err := checkpoint.Open(p.Root)
	if err != nil {
		return nil, err
	}
	return s.Records()
}

// Undo puts project p's place back as it was before record id (empty: the
// newest in-place run).
func Undo(ctx context.Context, p *Project, id string, o UndoOptions) (*UndoReport, error) {
	s, err := checkpoint.Open(p.Root)
	if err != nil {
		return nil, err
	}
	lock, err := lockRun(s.Dir)
	if err != nil {
		return nil, fmt.Errorf("another sentinel undo is working on %s; try again when it ends", p.Root)
	}
	defer lock.release()
	place, err := placelock.Acquire(p.Root, placelock.Holder{Run: "undo", Kind: placelock.KindUndo, Started: time.Now()})
	if err != nil {
		return nil, fmt.Errorf("cannot undo in %s now: %w", p.Root, err)
	}
	defer place.Release()
	rec, err := undoTarget(s, id)
	if err != nil {
		return nil, movedHint(p, s, err)
	}
	if rec.Kind == "exec" && ValidRunID(rec.ID) {
		SweepStale(ctx, p)
		if m, err := ReadMeta(p, rec.ID); err == nil && m.Status == StatusRunning {
			return nil, fmt.Errorf("run %s is still running; undo it when it ends", rec.ID)
		}
	}
	which, index := "before", indexBefore
	if o.To > 0 {
		pt, ok := rec.Point(o.To)
		if !ok {
			return nil, fmt.Errorf("%s has no checkpoint before a tool call %d (it has %d; see: sentinel undo %s --list)", rec.ID, o.To, len(rec.Points), rec.ID)
		}
		which, index = pt.Manifest, pt.Index
		if index == "" {
			index = pointIndexName(o.To)
		}
	}
	before, err := s.Manifest(rec.ID, which)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", rec.ID, err)
	}
	var after *checkpoint.Manifest
	if rec.HasAfter {
		if after, err = s.Manifest(rec.ID, "after"); err != nil {
			return nil, fmt.Errorf("checkpoint %s: %w", rec.ID, err)
		}
	} else if !o.Force {
		return nil, fmt.Errorf("%s ended without a record of the place after it (killed, crashed, or the record could not be saved), so your changes since cannot be told from its own; 'sentinel undo --force %s' puts back everything that differs from its checkpoint", rec.ID, rec.ID)
	}
	prev := after
	if prev == nil {
		prev = before
	}
	now, err := checkpoint.Take(s, p.Root, checkpoint.Options{Prev: prev, Listable: before, Skip: checkpointSkip()})
	if err != nil {
		return nil, err
	}
	plan := checkpoint.PlanUndo(before, after, now)
	rep := &UndoReport{Undone: rec, To: o.To}
	if len(plan.Conflicts) > 0 && !o.Force {
		// The person's later work is theirs: those paths are left out of
		// the plan, the rest is put back.
		kept := map[string]bool{}
		for _, c := range plan.Conflicts {
			kept[c.Path] = true
		}
		rep.Changed, plan.Conflicts = plan.Conflicts, nil
		plan.Steps = slices.DeleteFunc(plan.Steps, func(st checkpoint.Step) bool { return kept[st.Path] })
		plan.Cannot = slices.DeleteFunc(plan.Cannot, func(c checkpoint.Conflict) bool { return kept[c.Path] })
	}
	for _, st := range plan.Steps {
		rep.Steps = append(rep.Steps, st.Line())
	}
	for _, c := range plan.Cannot {
		rep.Cannot = append(rep.Cannot, c.Path+": "+c.Why)
	}
	for _, c := range plan.Conflicts {
		rep.Forced = append(rep.Forced, c.Path+": "+c.Why)
	}
	// The git index (undo_index.go): refused before anything changes.
	restoreIndex, err := undoIndex(ctx, s, rec.ID, index, p.GitDir, true)
	if errors.Is(err, errNoPointIndex) {
		err = fmt.Errorf("%s kept no copy of the git index before tool call %d, so the index cannot be put back to that point; 'sentinel undo %s' puts back the whole run, index included, or --force puts back the files and leaves the index as it is", rec.ID, o.To, rec.ID)
	}
	if err != nil {
		if !o.Force {
			return nil, err
		}
		rep.Cannot = append(rep.Cannot, "the git index: "+err.Error())
	}
	if restoreIndex {
		what := "the run"
		if o.To > 0 {
			what = fmt.Sprintf("tool call %d", o.To)
		}
		rep.Steps = append(rep.Steps, "restore the git index as it was before "+what+" (unstages what the coder staged since)")
	}
	if o.DryRun {
		return rep, nil
	}
	if len(plan.Steps) == 0 {
		if restoreIndex {
			if _, err := undoIndex(ctx, s, rec.ID, index, p.GitDir, false); err != nil {
				return nil, fmt.Errorf("restore the git index: %w", err)
			}
		}
		return rep, settleKept(s, rec, rep)
	}

	// The undo's own checkpoint first: the place as it is now.
	rep.ID = "undo-" + NewRunID(time.Now())
	urec := &checkpoint.Record{ID: rep.ID, Kind: "undo", Place: p.Root, Task: "undo " + rec.ID, Started: time.Now().UTC(), Undoes: rec.ID, NotCovered: len(now.NotCovered())}
	if err := s.SaveManifest(rep.ID, "before", now); err != nil {
		return nil, err
	}
	if err := s.SaveRecord(urec); err != nil {
		return nil, err
	}
	applied, aerr := checkpoint.Apply(s, p.Root, plan)
	if restoreIndex {
		if _, ierr := undoIndex(ctx, s, rec.ID, index, p.GitDir, false); ierr != nil {
			aerr = errors.Join(aerr, fmt.Errorf("restore the git index: %w", ierr))
		}
	}
	if applied != nil {
		rep.Kept = applied.Kept
		rep.Steps = append(rep.Steps, applied.Relinked...)
		rep.Copies = applied.Copies
		rep.Owners = applied.Owners
		// What the person changed while undo ran is theirs, as what they
		// changed after the run ended is: kept, and the run stays undoable.
		rep.Changed = append(rep.Changed, applied.Raced...)
		for _, c := range applied.Raced {
			for _, st := range plan.Steps {
				if st.Path == c.Path {
					rep.Steps = slices.DeleteFunc(rep.Steps, func(l string) bool { return l == st.Line() })
				}
			}
		}
	}
	if left, err := checkpoint.Take(s, p.Root, checkpoint.Options{Prev: now, Listable: before, Skip: checkpointSkip()}); err == nil {
		if s.SaveManifest(rep.ID, "after", left) == nil {
			urec.HasAfter = true
		}
	}
	urec.Ended = time.Now().UTC()
	rec.Kept = nil
	if len(rep.Changed) == 0 {
		rec.UndoneBy = rep.ID // partly undone stays undoable: --force finishes it
	}
	for _, c := range rep.Changed {
		rec.Kept = append(rec.Kept, c.Path)
	}
	err = errors.Join(aerr, s.SaveRecord(urec), s.SaveRecord(rec))
	if rec.Kind == "undo" && rec.Undoes != "" {
		if orig, oerr := s.Record(rec.Undoes); oerr == nil && orig.UndoneBy == rec.ID {
			orig.UndoneBy = ""
			err = errors.Join(err, s.SaveRecord(orig))
		}
	}
	journalUndo(p, rec, rep, aerr)
	return rep, err
}

// CheckpointPoints is record id (empty: the newest in-place run's) with
// its points before single tool calls, for `sentinel undo RUN --list`.
func CheckpointPoints(p *Project, id string) (*checkpoint.Record, error) {
	s, err := checkpoint.Open(p.Root)
	if err != nil {
		return nil, err
	}
	if id != "" {
		if !checkpoint.ValidID(id) {
			return nil, fmt.Errorf("%q is not a run or checkpoint id (see: sentinel undo --list)", id)
		}
		return s.Record(id)
	}
	return undoTarget(s, "")
}

// undoTarget is record id, or the newest in-place run's when id is empty;
// one already undone is refused, naming the undo that undid it.
func undoTarget(s *checkpoint.Store, id string) (*checkpoint.Record, error) {
	if id != "" {
		if !checkpoint.ValidID(id) {
			return nil, fmt.Errorf("%q is not a run or checkpoint id (see: sentinel undo --list)", id)
		}
		rec, err := s.Record(id)
		if err != nil {
			return nil, err
		}
		if rec.UndoneBy != "" {
			return nil, fmt.Errorf("%s was undone already, by %s ('sentinel undo %s' puts its changes back)", id, rec.UndoneBy, rec.UndoneBy)
		}
		return rec, nil
	}
	recs, err := s.Records()
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Kind != "exec" && r.Kind != "mcp" { // an undo is undone by its id only
			continue
		}
		if r.UndoneBy != "" {
			return nil, fmt.Errorf("the newest in-place run here, %s, was undone already, by %s ('sentinel undo %s' puts its changes back; 'sentinel undo --list' shows the others)", r.ID, r.UndoneBy, r.UndoneBy)
		}
		return r, nil
	}
	return nil, fmt.Errorf("no in-place run of %s has a checkpoint; nothing to undo", s.Place)
}

// UndoDone is the data of an undone event.
type UndoDone struct {
	Undo   string   `json:"undo"`   // the undo's checkpoint id ('sentinel undo ID' undoes it)
	Undone string   `json:"undone"` // the record undone
	Steps  []string `json:"steps"`
	Cannot []string `json:"cannot,omitempty"`
	Kept   []string `json:"kept,omitempty"`
	Forced []string `json:"forced,omitempty"`
	Error  string   `json:"error,omitempty"`
	// Owners: paths whose owner undo could not give back (not root).
	Owners []string `json:"owners,omitempty"`
}

// journalUndo records the undo in the journal of the run it concerns: the
// run undone, or the run whose undo was undone.
func journalUndo(p *Project, rec *checkpoint.Record, rep *UndoReport, aerr error) {
	runID, text := rec.ID, fmt.Sprintf("undone by %s: %d path(s) put back as they were before the run", rep.ID, len(rep.Steps))
	if rep.To > 0 {
		text = fmt.Sprintf("undone by %s: %d path(s) put back as they were before tool call %d", rep.ID, len(rep.Steps), rep.To)
	}
	if rec.Kind == "undo" {
		runID, text = rec.Undoes, fmt.Sprintf("%s was undone by %s: the run's changes are back (%d path(s))", rec.ID, rep.ID, len(rep.Steps))
	}
	if !ValidRunID(runID) {
		return
	}
	dir, err := p.runDir(runID)
	if err != nil {
		return
	}
	d := UndoDone{Undo: rep.ID, Undone: rec.ID, Steps: rep.Steps, Cannot: rep.Cannot, Kept: slices.Clone(rep.Kept), Forced: rep.Forced, Owners: rep.Owners}
	for _, c := range rep.Changed {
		d.Kept = append(d.Kept, c.Path+": "+c.Why)
	}
	if len(rep.Changed) > 0 {
		text += fmt.Sprintf("; %d path(s) changed since the run ended were kept", len(rep.Changed))
	}
	if n := len(d.Steps); n > maxChangeLines {
		d.Steps = append(d.Steps[:maxChangeLines:maxChangeLines], fmt.Sprintf("… and %d more", n-maxChangeLines))
	}
	if len(rep.Owners) > 0 {
		text += fmt.Sprintf("; %d path(s) are back without their owner (only root can give it back)", len(rep.Owners))
	}
	if aerr != nil {
		d.Error = aerr.Error()
		text += "; some could not be: " + aerr.Error()
	}
	appendEvent(dir, runID, journal.System, KindUndone, text, d)
}

// settleKept is for an undo with nothing left to put back: what it kept
// is what the person still has changed now (the record's Kept), and when
// that is nothing for a record an earlier undo left partly undone (they made each path as the
// run left it or as it was before, and the earlier undo or this one's
// plan needs nothing more) the record is undone, by that earlier undo.
func settleKept(s *checkpoint.Store, rec *checkpoint.Record, rep *UndoReport) error {
	had := len(rec.Kept) > 0
	rec.Kept = nil
	for _, c := range rep.Changed {
		rec.Kept = append(rec.Kept, c.Path)
	}
	if !had && len(rec.Kept) == 0 {
		return nil
	}
	if had && len(rec.Kept) == 0 {
		recs, err := s.Records()
		if err != nil {
			return err
		}
		for _, r := range recs { // newest first
			if r.Kind == "undo" && r.Undoes == rec.ID {
				rec.UndoneBy = r.ID
				break
			}
		}
	}
	return s.SaveRecord(rec)
}
