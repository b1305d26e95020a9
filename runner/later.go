package runner

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// Finished is a run that ended without landing (or kept its patch with
// --apply none), reopened for review after the fact.
type Finished struct {
	Project *Project
	Meta    *Meta
	Dir     string // the run directory
	Patch   []byte
	// OnEvent, when set, is told each event the review journals as it is
	// journaled (the verification's progress: sentinel review shows it).
	OnEvent func(lane journal.Lane, kind journal.Kind, text string, data any)
	lock    *runLock
}

// Close releases the run (OpenFinished holds its lock so no other sentinel
// touches it meanwhile).
func (f *Finished) Close() { f.lock.release() }

// OpenFinished loads a run for `sentinel review`: it must have ended, and
// not already have landed somewhere. Its record must be one Sentinel signed
// (records.go), and the patch must be the one Sentinel computed for it.
func OpenFinished(ctx context.Context, p *Project, id string) (*Finished, error) {
	// The review verifies on the host's toolchain (the Go build seed): the
	// person's programs, never one from the project an earlier in-place
	// run could have written.
	hostbin.PinPerson([]string{p.Root}, hostbin.PersonPrograms...)
	SweepStale(ctx, p)
	if !ValidRunID(id) {
		return nil, fmt.Errorf("%q is not a run id (see 'sentinel runs')", id)
	}
	m, err := ReadMeta(p, id)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", id, err)
	}
	dir := p.RunDir(id)
	switch {
	case m.Status == StatusRunning:
		return nil, fmt.Errorf("run %s is still running; review it when it ends", id)
	case m.Landing != nil && m.Landing.Mode != ApplyNone && !m.Landing.Nothing:
		return nil, fmt.Errorf("run %s already landed (%s); nothing to review", id, landingText(*m.Landing))
	case m.Snapshot == "":
		return nil, fmt.Errorf("run %s never got a workspace; nothing to review", id)
	}
	l, err := lockRun(dir)
	if err != nil {
		return nil, fmt.Errorf("run %s is being reviewed or landed by another sentinel", id)
	}
	b, err := verifiedPatch(p, m)
	if err != nil && m.PatchSHA256 == "" {
		// Ended before its patch was written (a full disk): the recovery
		// copy holds the work.
		b, err = recoverPatch(ctx, p, dir, m)
	}
	if err != nil {
		l.release()
		return nil, err
	}
	return &Finished{Project: p, Meta: m, Dir: dir, Patch: b, lock: l}, nil
}

// verifiedPatch is the run's patch from its directory or from recovery,
// whichever matches the hash in its signed record.
func verifiedPatch(p *Project, m *Meta) ([]byte, error) {
	if m.PatchSHA256 == "" {
		return nil, fmt.Errorf("run %s has no patch to review", m.ID)
	}
	found := false
	for _, dir := range []string{p.RunDir(m.ID), p.RecoveryDir(m.ID)} {
		b, err := readFileIn(dir, "patch.diff")
		if err != nil {
			continue
		}
		found = true
		if sha256Hex(b) == m.PatchSHA256 {
			return b, nil
		}
	}
	if found {
		return nil, fmt.Errorf("run %s: patch.diff was changed since Sentinel computed it; not landing it (the run's work is in %s)", m.ID, p.RecoveryDir(m.ID))
	}
	return nil, fmt.Errorf("run %s has no patch to review", m.ID)
}

// stage is the landing stage `sentinel review` lands through, the same
// one a live run uses; verification runs in mode's sandbox.
func (f *Finished) stage(mode sandbox.Mode) *LandingStage {
	m := f.Meta
	snap := Snapshot{Base: m.Base, Commit: m.Snapshot, Dirty: m.Base != m.Snapshot}
	return &LandingStage{Project: f.Project, Snapshot: snap, RunID: m.ID, Dir: f.Dir, Emit: f.emit,
		Verifier: Verifier{Project: f.Project, Snapshot: snap, RunID: m.ID, RunDir: f.Dir, Mode: mode, Emit: f.emit}}
}

// ReviewRequest asks for the person's review of the run's patch, as a live
// run's review does; the view answers on answer.
func (f *Finished) ReviewRequest(answer chan<- ReviewAnswer) (*ReviewRequest, error) {
	return f.stage("").ReviewRequest(f.Patch, f.Meta.Checks, answer)
}

// Approve lands accepted (nil: the whole patch) as mode says. A part of the
// patch is re-verified with the run's checks first, and so is the whole of
// a run that never passed verification (failed, interrupted, stuck): when
// that fails, or nothing could verify it, nothing lands. o.Force lands such
// a run unverified and journals what was not checked.
func (f *Finished) Approve(ctx context.Context, accepted []byte, mode ApplyMode, o ApproveOptions) (Landing, error) {
	if len(f.Patch) == 0 {
		return Landing{}, errors.New("the run changed nothing; there is nothing to land")
	}
	m, s := f.Meta, f.stage(o.Sandbox)
	why := f.Unverified()
	if accepted != nil || why == "" || o.Force || len(f.verifyChecks(o)) > 0 {
		f.sayLandingStarts(why, accepted != nil, o.Force) // else the error below comes at once
	}
	// Always the verified bytes, as a regular file of Sentinel's (the rename
	// replaces whatever stood at that name, a planted link included): git
	// reads this path, so it must hold exactly what was checked.
	var patchPath string
	var ch Change
	if accepted != nil {
		var err error
		if patchPath, ch, err = s.Accepted(accepted); err != nil {
			return Landing{}, err
		}
	} else {
		if err := writeFileIn(f.Dir, "patch.diff", f.Patch, 0o600); err != nil {
			return Landing{}, err
		}
		names, err := patchNames(f.Patch)
		if err != nil {
			return Landing{}, err
		}
		patchPath, ch = filepath.Join(f.Dir, "patch.diff"), Change{Patch: f.Patch, Files: names}
	}
	switch {
	case why != "" && o.Force && accepted == nil:
		g := GateFailure{Gate: gateForced, Reason: f.NotChecked(o)}
		f.emit(journal.System, KindGateFailed, "landing with --force, unverified: "+g.Reason, g)
	case why != "" || accepted != nil:
		checks := f.verifyChecks(o)
		if len(checks) == 0 && accepted == nil {
			return Landing{}, fmt.Errorf("%s, and no check command is configured or detected to verify it on a clean copy: give --verify CMD, or --force to land it unverified", why)
		}
		results, err := s.Verify(ctx, patchPath, checks)
		if err != nil {
			if accepted != nil {
				return Landing{}, fmt.Errorf("the accepted part: %w", err)
			}
			return Landing{}, fmt.Errorf("%s, and verifying it on a clean copy now failed: %w; nothing landed (--force lands it unverified)", why, err)
		}
		m.Checks = results
	}
	if accepted == nil && mode == ApplyBranch {
		f.reviewCoderCommits(&ch) // a part accepted in review lands as one commit
	}
	l, err := s.Land(ctx, ch, mode, reviewCommitMessage(m, ch.Files), patchPath, "after review: ")
	if err != nil {
		return l, err
	}
	m.Status, m.Landing, m.Files, m.Error = StatusLanded, &l, ch.Files, ""
	if err := f.save(); err != nil {
		return l, err // landing.json stays: the next command records the landing
	}
	endLanding(f.Project, m.ID)
	return l, nil
}

// Reject records that the person rejected the change; the work stays in
// recovery.
func (f *Finished) Reject(reason string) error {
	if reason == "" {
		reason = "no reason given" // and so the journal's payload says
	}
	f.stage("").Rejected(reason, reason)
	f.Meta.Status = StatusRejected
	f.Meta.Error = "rejected in review: " + reason
	return f.save()
}

func (f *Finished) emit(lane journal.Lane, kind journal.Kind, text string, data any) {
	appendEvent(f.Dir, f.Meta.ID, lane, kind, text, data)
	if f.OnEvent != nil {
		f.OnEvent(lane, kind, text, data)
	}
}

func (f *Finished) save() error {
	if f.Meta.Ended.IsZero() {
		f.Meta.Ended = time.Now().UTC()
	}
	evs, _ := readRecord(f.Dir)
	f.Meta.Decisions = CountDecisions(evs)
	writeReports(f.Dir, f.Meta, evs)
	return writeMeta(f.Dir, f.Meta)
}

// sayLandingStarts tells whoever watches the review, at once, what comes
// before the change lands: a verification on a clean copy (of the part
// accepted, or of a run that never passed one) or the landing itself.
// Every step after it reports only once it has taken a second, and at load
// 20 the patch, the accepted part and the clean copy's first second made
// a blank terminal of 2-3 s after the review screen closed or --approve
// was given (measured in docs/measure/33-check29.md).
func (f *Finished) sayLandingStarts(why string, part, force bool) {
	what := stepLanding
	switch {
	case part:
		what = "verifying the part you accepted on a clean copy before it lands"
	case why != "" && !force:
		what = why + ": verifying it on a clean copy before it lands"
	}
	f.emit(journal.System, KindVerifyProgress, what+": 0s", CheckProgress{Command: what})
}
