package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// finish concludes the run (patch, verification, review, landing), keeps
// whatever did not land for recovery, and closes everything the run opened.
func (r *Run) finish(end coderEnd) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	if r.cancel != nil {
		r.cancel()
	}
	patchPath := filepath.Join(r.dir, "patch.diff")
	res := r.conclude(ctx, end, patchPath)
	removeShadow(r.opts.Project, r.id)
	// The patch as Sentinel computed it: review later lands only this.
	if b, err := readFileIn(r.dir, "patch.diff"); err == nil {
		r.meta.PatchSHA256 = sha256Hex(b)
	}
	if res.Status == StatusLanded {
		_ = os.RemoveAll(r.ws.Dir) // landed: a leftover copy is only disk space, swept with the run
	} else {
		if res.Err != nil {
			r.emit(journal.System, KindError, res.Err.Error(), nil)
		}
		dest, err := keepForRecovery(r.opts.Project, r.id, r.ws.Dir, patchPath)
		if err != nil {
			r.emit(journal.System, KindError, "keep the work for recovery: "+err.Error(), nil)
		} else {
			res.Recovery = dest
			r.emit(journal.System, KindRecovery, "work kept in "+dest+" (land it later with: sentinel review "+r.id+")", map[string]any{"dir": dest})
		}
	}
	if r.broker != nil {
		r.broker.Close()
	}
	if r.sb != nil {
		_ = r.sb.Close() // best effort: the coder's processes are already gone
	}
	if r.needs != nil {
		// An agent's per-run state may hold a copy of the person's login.
		_ = os.RemoveAll(r.agentStateDir())
	}
	r.meta.Status = res.Status
	r.meta.Ended = time.Now().UTC()
	r.meta.Landing = res.Landing
	r.meta.Recovery = res.Recovery
	if res.Err != nil {
		r.meta.Error = res.Err.Error()
	}
	r.emit(journal.System, KindRunEnd, fmt.Sprintf("run %s: %s", r.id, res.Status), RunEnd{Status: res.Status})
	closeErr := r.journal.Close()
	<-r.reportsDone
	evs, _ := journal.ReadFile(filepath.Join(r.dir, "events.jsonl"))
	r.meta.Decisions = CountDecisions(evs)
	err := errors.Join(closeErr, writeMeta(r.dir, r.meta), writeReports(r.dir, r.meta, evs))
	if err != nil {
		appendEvent(r.dir, r.id, journal.System, KindError, "could not write the run's records: "+err.Error(), nil)
	}
	res = r.withRecordsErr(res, err)
	r.lock.release()
	r.result = res
	close(r.done)
}

// writeReports rewrites PROGRESS.md, DECISIONS.md and FINAL_REPORT.md.
func writeReports(dir string, m *Meta, evs []journal.Event) error {
	diff, _ := readFileIn(dir, "patch.diff") // unreadable: the report loses only the mode-based flags
	return errors.Join(
		writeAtomic(filepath.Join(dir, "PROGRESS.md"), renderProgress(m, evs, time.Now())),
		writeAtomic(filepath.Join(dir, "DECISIONS.md"), renderDecisions(m, evs)),
		writeAtomic(filepath.Join(dir, "FINAL_REPORT.md"), renderFinalReport(m, evs, FlaggedFiles(m.Files, diff))))
}

// conclude takes the coder's work from the workspace through verification
// and review to landing, and says how that went.
func (r *Run) conclude(ctx context.Context, end coderEnd, patchPath string) Result {
	change, err := r.ws.Diff(ctx)
	if err == nil {
		err = writeFileIn(filepath.Dir(patchPath), filepath.Base(patchPath), change.Patch, 0o600)
	}
	if err != nil {
		if end.interrupted {
			return Result{Status: StatusInterrupted, Err: fmt.Errorf("run %s was interrupted", r.id)}
		}
		return Result{Status: StatusFailed, Err: fmt.Errorf("compute the patch: %w", err)}
	}
	r.meta.Files = change.Files
	r.emit(journal.System, KindPatch, fmt.Sprintf("patch: %d file(s) changed", len(change.Files)),
		map[string]any{"files": change.Files, "path": patchPath, "bytes": len(change.Patch)})
	if len(change.Left) > 0 {
		r.emit(journal.System, KindPatchLeftOut, fmt.Sprintf("left out of the patch: %d path(s) a patch may never carry (.git, .sentinel, nested repositories)", len(change.Left)),
			PatchLeftOut{Paths: change.Left})
	}
	if r.gateErr != nil {
		return Result{Status: StatusFailed, Err: r.gateErr}
	}
	if err := journalFailure(r.journal); err != nil {
		return Result{Status: StatusFailed, Err: err}
	}
	switch {
	case end.interrupted:
		return Result{Status: StatusInterrupted, Err: fmt.Errorf("run %s was interrupted", r.id)}
	case end.failed != nil: // the agent's own error: it never did the work
		return Result{Status: StatusFailed, Err: end.failed}
	case end.code != 0:
		return Result{Status: StatusFailed, Err: fmt.Errorf("coder %s exited with status %d", r.adapter.Name(), end.code)}
	}
	if !change.Empty() {
		results, err := r.verifier().Verify(ctx, patchPath)
		r.meta.Checks = results
		if err != nil {
			return Result{Status: StatusFailed, Err: err}
		}
		var res *Result
		change, res = r.review(ctx, change, patchPath)
		if res != nil {
			return *res
		}
	}
	if err := journalFailure(r.journal); err != nil {
		return Result{Status: StatusFailed, Err: err} // nothing lands unrecorded
	}
	l, err := Land(ctx, r.opts.Project, r.ws.Snapshot, change, r.opts.Apply, r.id, r.commitMessage(change), patchPath, r.dir)
	if err != nil {
		return Result{Status: StatusFailed, Err: fmt.Errorf("land: %w", err)}
	}
	r.emit(journal.System, KindLanded, landingText(l), l)
	return Result{Status: StatusLanded, Landing: &l}
}

// review shows the change to the person when one is there and returns what
// they accepted (re-verified when it is only part of the change). A nil
// Result means go on and land; otherwise the run ends with it. With no
// person, a branch lands unreviewed (it touches nothing of the person's
// checkout) but a working-tree apply waits for `sentinel review`.
func (r *Run) review(ctx context.Context, change Change, patchPath string) (Change, *Result) {
	if !r.opts.Review {
		if err := r.heldByGates(); err != nil {
			return change, &Result{Status: StatusPending, Err: err}
		}
		if r.opts.Apply == ApplyWorktree {
			return change, &Result{Status: StatusPending, Err: fmt.Errorf("nobody reviewed the change, so it was not applied to your working tree: review it with 'sentinel review %s'", r.id)}
		}
		return change, nil
	}
	files, err := patch.Parse(change.Patch)
	if err != nil {
		return change, &Result{Status: StatusFailed, Err: fmt.Errorf("read the patch for review: %w", err)}
	}
	patch.Sort(files)
	answer := make(chan ReviewAnswer, 1)
	req := &ReviewRequest{RunID: r.id, Files: files, Patch: change.Patch, Checks: r.meta.Checks, Answer: answer}
	r.emit(journal.System, KindReview, fmt.Sprintf("waiting for your review of %d file(s)", len(files)), map[string]any{"files": len(files)})
	select {
	case r.reviews <- req:
	case <-r.stopped:
		return change, &Result{Status: StatusInterrupted, Err: fmt.Errorf("run %s was interrupted during review", r.id)}
	}
	var a ReviewAnswer
	select {
	case a = <-answer:
	case <-r.stopped:
		return change, &Result{Status: StatusInterrupted, Err: fmt.Errorf("run %s was interrupted during review", r.id)}
	}
	if !a.Approve {
		reason := a.Reason
		if reason == "" {
			reason = "no reason given"
		}
		r.emit(journal.System, KindReviewRejected, "you rejected the change: "+reason, map[string]any{"reason": a.Reason})
		return change, &Result{Status: StatusRejected, Err: fmt.Errorf("the change was rejected in review: %s", reason)}
	}
	if a.Patch == nil {
		r.emit(journal.System, KindReviewApproved, "you approved the whole change", nil)
		return change, nil
	}
	// A part of the change: it replaces the patch and is verified again.
	accepted := filepath.Join(r.dir, "accepted.diff")
	if err := writeFileIn(r.dir, "accepted.diff", a.Patch, 0o600); err != nil {
		return change, &Result{Status: StatusFailed, Err: err}
	}
	part, err := patch.Parse(a.Patch)
	if err != nil {
		return change, &Result{Status: StatusFailed, Err: fmt.Errorf("read the accepted part: %w", err)}
	}
	var names []string
	for _, f := range part {
		names = append(names, f.Path)
	}
	r.emit(journal.System, KindReviewApproved, fmt.Sprintf("you approved part of the change: %d of %d file(s); verifying that part again", len(part), len(change.Files)), map[string]any{"files": names})
	results, err := r.verifier().Verify(ctx, accepted)
	r.meta.Checks = results
	if err != nil {
		return change, &Result{Status: StatusFailed, Err: fmt.Errorf("the accepted part: %w", err)}
	}
	if err := copyFile(accepted, patchPath); err != nil {
		return change, &Result{Status: StatusFailed, Err: err}
	}
	r.meta.Files = names
	return Change{Patch: a.Patch, Files: names}, nil
}

func (r *Run) commitMessage(ch Change) string {
	title := oneLine(r.opts.Task)
	if title == "" {
		title = "coder's work"
	}
	verified := "none configured"
	if len(r.meta.Checks) > 0 {
		var parts []string
		for _, c := range r.meta.Checks {
			parts = append(parts, fmt.Sprintf("%s (exit %d)", c.Command, c.ExitCode))
		}
		verified = strings.Join(parts, "; ")
	}
	evs, _ := journal.ReadFile(filepath.Join(r.dir, "events.jsonl"))
	d := CountDecisions(evs)
	return fmt.Sprintf("sentinel: %s\n\n%d file(s) changed by coder %s.\n\nSentinel-Run: %s\nSentinel-Coder: %s\nSentinel-Verified: %s\nSentinel-Approvals: %d allowed, %d denied\nCo-authored-by: %s\n",
		title, len(ch.Files), r.adapter.Name(), r.id, r.adapter.Name(), verified, d.Allowed, d.Denied, coAuthor(r.adapter.Name()))
}

func landingText(l Landing) string {
	switch {
	case l.Nothing:
		return "nothing to land: the coder changed no files"
	case l.Mode == ApplyWorktree:
		return fmt.Sprintf("applied %d file(s) to your working tree", len(l.Files))
	case l.Mode == ApplyNone:
		return fmt.Sprintf("kept the patch (%d file(s)); nothing applied (--apply none)", len(l.Files))
	}
	return fmt.Sprintf("landed on branch %s (%d file(s)); your checkout is unchanged — see: git log --stat %s", l.Branch, len(l.Files), l.Branch)
}

// keepForRecovery moves a run's workspace and patch to .sentinel/recovery/<id>/.
// id must be a run id; the paths are recomputed from it, and none of the
// state directories on the way may be a symlink.
func keepForRecovery(p *Project, id, wsDir, patchPath string) (string, error) {
	if !ValidRunID(id) {
		return "", fmt.Errorf("%q is not a run id", id)
	}
	if err := os.MkdirAll(filepath.Join(p.StateDir(), "recovery"), 0o700); err != nil {
		return "", err
	}
	if err := p.stateDirs("recovery"); err != nil {
		return "", err
	}
	dest := p.RecoveryDir(id)
	if err := os.Mkdir(dest, 0o700); err != nil && !os.IsExist(err) {
		return "", err
	}
	if err := p.stateDirs("recovery", id); err != nil {
		return "", err
	}
	if b, err := readFileIn(filepath.Dir(patchPath), filepath.Base(patchPath)); err == nil {
		if err := writeFileIn(dest, "patch.diff", b, 0o600); err != nil {
			return "", err
		}
	}
	if st, err := os.Lstat(wsDir); wsDir != "" && err == nil && st.IsDir() {
		if err := os.Rename(wsDir, filepath.Join(dest, "workspace")); err != nil {
			return "", err
		}
	}
	return dest, nil
}

// CountDecisions totals approval decisions from a journal: allowed and
// denied, by who decided, and by the kind of request.
func CountDecisions(evs []journal.Event) *Decisions {
	d := &Decisions{By: map[string]int{}, ByKind: map[string]int{}}
	js, _ := approvals.ReadJournaled(evs)
	for _, j := range js {
		if !j.Decided {
			continue
		}
		if j.Decision.Allowed() {
			d.Allowed++
		} else {
			d.Denied++
		}
		by, _, _ := strings.Cut(j.Decision.By, ":")
		d.By[by]++
		if k := j.Request.Kind; k != "" {
			d.ByKind[string(k)]++
		}
	}
	return d
}

// SweepStale finds runs whose process died (kill -9, a crash, a closed
// terminal): an apply to the working tree that was cut short is undone, so
// the project is exactly as before, and the work is kept in recovery.
// Landing on a branch is a single ref update, so it either happened or not.
//
// It acts only on records Sentinel can prove it wrote (ScanRuns): a planted
// run directory, meta.json or apply.pending.json is ignored, and the paths
// it uses are recomputed from the run id.
func SweepStale(ctx context.Context, p *Project) {
	metas, _, _ := ScanRuns(p)
	for _, m := range metas {
		dir, err := p.runDir(m.ID)
		if err != nil {
			continue
		}
		_, pendErr := os.Lstat(pendingPath(dir))
		if m.Status != StatusRunning && pendErr != nil {
			continue
		}
		l, err := lockRun(dir)
		if err != nil {
			continue // alive: its own process is still at work
		}
		if pendErr == nil {
			if _, err := readPending(p, m.ID); err == nil {
				note := "an apply to your working tree was cut short; the files it had touched were restored"
				if err := restorePending(p, m.ID); err != nil {
					note = "an apply to your working tree was cut short and restoring it failed: " + err.Error()
				}
				appendEvent(dir, m.ID, journal.System, KindApplyUndone, note, nil)
				if m.Status == StatusLanded && m.Landing != nil && m.Landing.Mode == ApplyWorktree {
					m.Status, m.Landing = StatusInterrupted, nil
				}
			}
		}
		if m.Status == StatusRunning {
			recoverDead(ctx, p, dir, m)
		}
		_ = writeMeta(dir, m)
		l.release()
	}
}

// recoverDead keeps the work of a run whose process died. The workspace is
// read only through the run's shadow git dir in the user's state dir (see
// shadow.go), never through a git dir found in the project.
func recoverDead(ctx context.Context, p *Project, dir string, m *Meta) {
	patchPath := filepath.Join(dir, "patch.diff")
	wsDir := p.WorkDir(m.ID)
	wsReal := p.stateDirs("work", m.ID) == nil
	if shadow, err := shadowDir(p, m.ID); err == nil && wsReal && m.Snapshot != "" {
		if st, err := os.Lstat(shadow); err == nil && st.IsDir() {
			ws := &Workspace{Dir: wsDir, Shadow: shadow, Snapshot: Snapshot{Base: m.Base, Commit: m.Snapshot}, project: p}
			if ch, err := ws.Diff(ctx); err == nil {
				if err := writeFileIn(dir, "patch.diff", ch.Patch, 0o600); err == nil {
					m.PatchSHA256 = sha256Hex(ch.Patch)
				}
			}
		}
	}
	removeShadow(p, m.ID)
	keepWS := ""
	if p.stateDirs("work") == nil { // never through a symlinked .sentinel/work
		keepWS = wsDir
		_ = os.RemoveAll(wsDir + ".agent") // an agent's per-run state may hold a copy of the login
		_ = os.RemoveAll(p.WorkDir(m.ID + "-verify"))
	}
	dest, err := keepForRecovery(p, m.ID, keepWS, patchPath)
	m.Status = StatusInterrupted
	m.Error = "the sentinel process ended without finishing the run (killed or crashed)"
	if err == nil {
		m.Recovery = dest
	}
	if m.Ended.IsZero() {
		m.Ended = time.Now().UTC()
	}
	appendEvent(dir, m.ID, journal.System, KindRunEnd, "run "+m.ID+": interrupted (found after the fact; work kept in "+dest+")", RunEnd{Status: StatusInterrupted})
	if evs, err := journal.ReadFile(filepath.Join(dir, "events.jsonl")); err == nil {
		m.Decisions = CountDecisions(evs)
		writeReports(dir, m, evs)
	}
}

// appendEvent adds one event to a finished run's journal.
func appendEvent(dir, id string, lane journal.Lane, kind journal.Kind, text string, data any) {
	if j, err := journal.Open(filepath.Join(dir, "events.jsonl"), id); err == nil {
		_, _ = j.Append(lane, kind, text, data) // after the run: no run left to stop; the journal stays whole either way
		_ = j.Close()
	}
}
