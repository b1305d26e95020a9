package runner

// Landing is a journaled transaction. Before the branch ref or the working
// tree changes, the intent is recorded in the run directory (landing.json,
// signed and bound to the run id and the project root like meta.json, see
// records.go): the mode, the branch and the exact commit it will point at,
// the files. A working-tree apply marks the record "applied" once every
// file is written, before it drops its pending record. The run's summary
// (meta.json) is written after, and only then is landing.json removed.
//
// A process killed anywhere in between leaves landing.json, and the next
// command that reads the project's runs (SweepStale: run, runs, review;
// SettleRun: the service's status.list, so status and the console) settles
// it from the record, so the record and the repository agree:
//
//   - branch: the branch exists and points at exactly the recorded commit
//     (which fixes its tree, so exactly the patch on the snapshot): the run
//     is landed. No branch: nothing landed. A branch that points elsewhere
//     is not Sentinel's landing; it is left alone and the run says so.
//   - worktree: marked applied: every file was written, so the run is
//     landed (a pending record still there is dropped, not restored). Not
//     marked: the pending record, if any, is restored and nothing landed.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/journal"
)

const (
	landingName    = "landing.json"
	purposeLanding = "sentinel landing v1"
)

// The states of a landing record.
const (
	landingBegun   = "begun"   // nothing of it is known to have taken effect
	landingApplied = "applied" // a working-tree apply wrote every file
)

// landingRecord is the signed record of a landing under way.
type landingRecord struct {
	Run     string  `json:"run"`
	Root    string  `json:"root"`
	State   string  `json:"state"`
	Landing Landing `json:"landing"`
	// Target is the commit a branch landing points the branch at.
	Target string `json:"target,omitempty"`
}

// beginLanding records that run id is about to land l.
func beginLanding(p *Project, id string, l Landing, target string) error {
	dir, err := p.runDir(id)
	if err != nil {
		return err
	}
	rec := landingRecord{Run: id, Root: p.Root, State: landingBegun, Landing: l, Target: target}
	if err := writeSigned(dir, landingName, purposeLanding, rec, id, p.Root); err != nil {
		return fmt.Errorf("record the landing before it begins: %w", err)
	}
	return nil
}

// markLandingApplied records that a working-tree apply wrote every file.
func markLandingApplied(p *Project, id string) error {
	rec, err := readLanding(p, id)
	if err != nil {
		return err
	}
	rec.State = landingApplied
	dir, _ := p.runDir(id) // readLanding checked it
	return writeSigned(dir, landingName, purposeLanding, rec, id, p.Root)
}

// endLanding removes the record once the run's summary says how the
// landing ended.
func endLanding(p *Project, id string) {
	if dir, err := p.runDir(id); err == nil {
		_ = os.Remove(filepath.Join(dir, landingName)) // gone already: nothing to end
	}
}

// readLanding reads and checks run id's landing record.
func readLanding(p *Project, id string) (*landingRecord, error) {
	dir, err := p.runDir(id)
	if err != nil {
		return nil, err
	}
	var rec landingRecord
	if err := readSigned(dir, landingName, purposeLanding, &rec, id, p.Root); err != nil {
		return nil, err
	}
	if rec.Run != id || rec.Root != p.Root {
		return nil, fmt.Errorf("%s: %w", landingName, ErrUnverified)
	}
	if err := CheckPaths(p.Root, rec.Landing.Files); err != nil {
		return nil, err
	}
	return &rec, nil
}

// settleLanding finishes the record of an interrupted landing of run m
// (whose process is gone: the caller holds its lock) from landing.json and
// the repository. It returns what landed, or nil when nothing did, and
// whether there was a record at all. It journals what it found.
func settleLanding(ctx context.Context, p *Project, dir string, m *Meta) (landed *Landing, found bool) {
	if _, err := os.Lstat(filepath.Join(dir, landingName)); err != nil {
		return nil, false
	}
	rec, err := readLanding(p, m.ID)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			appendEvent(dir, m.ID, journal.System, KindError, "an interrupted landing's record was not acted on: "+err.Error(), nil)
		}
		return nil, false
	}
	l := rec.Landing
	switch l.Mode {
	case ApplyBranch:
		got, err := gitCmd{dir: p.Root}.line(ctx, "rev-parse", "--verify", "-q", "refs/heads/"+l.Branch)
		switch {
		case err != nil && got == "":
			appendEvent(dir, m.ID, journal.System, KindApplyUndone, "a landing on branch "+l.Branch+" was cut short before the branch was made; nothing landed", nil)
		case rec.Target != "" && got == rec.Target:
			landed = &l
		default:
			appendEvent(dir, m.ID, journal.System, KindError, fmt.Sprintf("a landing on branch %s was cut short, and the branch now points at %s, not at the run's commit %s: Sentinel leaves it alone; nothing of this run landed", l.Branch, short(got), short(rec.Target)), nil)
		}
	case ApplyWorktree:
		if rec.State == landingApplied {
			// Every file was written; a pending record left beside it is
			// the apply's own and must not undo it.
			_ = os.Remove(pendingPath(dir))
			_ = os.RemoveAll(filepath.Join(dir, backupName))
			landed = &l
		}
	}
	if landed != nil {
		appendEvent(dir, m.ID, journal.System, KindLanded, "the landing was interrupted after it took effect; it is recorded now: "+landingText(*landed), *landed)
	}
	endLanding(p, m.ID)
	return landed, true
}
