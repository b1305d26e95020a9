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
)

// finish concludes the run (patch, verification, review, landing), keeps
// whatever did not land for recovery, and closes everything the run opened.
func (r *Run) finish(end coderEnd) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	// A stop cancels verification, review and landing alike (stop.go).
	ctx, stopCancel := r.stop.context(ctx)
	defer stopCancel()
	if r.cancel != nil {
		r.cancel()
	}
	patchPath := filepath.Join(r.dir, "patch.diff")
	var res Result
	if r.opts.InPlace {
		res = r.end.concludeInPlace(ctx, end)
	} else {
		res = r.end.conclude(ctx, end, patchPath)
	}
	r.ws.dropShadow(r.opts.Project, r.id)
	// The patch as Sentinel computed it: review later lands only this.
	if b, err := readFileIn(r.dir, "patch.diff"); err == nil {
		r.meta.PatchSHA256 = sha256Hex(b)
	}
	landed := res.Status == StatusLanded
	if !landed && res.Err != nil {
		r.emit(journal.System, KindError, res.Err.Error(), nil)
	}
	if !landed && r.end.noWork {
		// Nothing to keep: a coder that failed having changed nothing
		// leaves no recovery entry.
		r.ws.removeDir()
	} else if dest, err := r.ws.keep(r.opts.Project, r.id, patchPath, landed); !landed && !r.opts.InPlace {
		if err != nil {
			r.emit(journal.System, KindError, "keep the work for recovery: "+err.Error(), nil)
		} else {
			res.Recovery = dest
			r.emit(journal.System, KindRecovery, "work kept in "+dest+" (land it later with: sentinel review "+r.id+")", RecoveryNote{Dir: dest})
		}
	}
	r.guard.closeBroker()
	if r.guard.sb != nil {
		_ = r.guard.sb.Close() // best effort: the coder's processes are already gone
	}
	if k, ok := r.adapter.(interface{ WriteBackState() []string }); ok {
		// In place, the agent's own history persists (agentutil.KeptState).
		for _, n := range k.WriteBackState() {
			r.emit(journal.System, KindNotice, "agent history: "+n, nil)
		}
	}
	if r.guard.needs != nil {
		// An agent's per-run state may hold a copy of the person's login.
		_ = os.RemoveAll(r.guard.agentStateDir())
	}
	r.guard.cleanupAdapter()
	r.meta.Status = res.Status
	r.meta.Ended = time.Now().UTC()
	r.meta.Landing = res.Landing
	r.meta.Recovery = res.Recovery
	r.meta.Stuck = res.Stuck
	if res.Err != nil {
		r.meta.Error = res.Err.Error()
	}
	r.emit(journal.System, KindRunEnd, fmt.Sprintf("run %s: %s", r.id, res.EndWord()), RunEnd{Status: res.Status, State: res.StateOf()})
	res = r.reports.final(r.journal.Close(), r.meta, res)
	if m, err := ReadMeta(r.opts.Project, r.id); err == nil && m.Status == r.meta.Status {
		endLanding(r.opts.Project, r.id) // the summary says how the landing ended
	}
	r.lock.release()
	r.place.Release()
	r.reg.end(res.Status)
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

func landingText(l Landing) string { return LandingLine(l) }

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
	for _, j := range approvals.Effective(evs) { // as each took effect: the agent's own rules may deny after Sentinel
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
// terminal): a landing cut short is settled from its record (landed, or
// nothing landed: landing_record.go), an apply to the working tree that
// had not finished is undone, so the project is exactly as before, and the
// work is kept in recovery.
//
// It acts only on records Sentinel can prove it wrote (ScanRuns): a planted
// run directory, meta.json or apply.pending.json is ignored, and the paths
// it uses are recomputed from the run id.
func SweepStale(ctx context.Context, p *Project) {
	metas, _, _ := scanRuns(p, false)
	for _, m := range metas {
		sweepRun(ctx, p, m)
	}
}

// sweepRun is SweepStale for one run whose record is m.
func sweepRun(ctx context.Context, p *Project, m *Meta) {
	dir, err := p.runDir(m.ID)
	if err != nil {
		return
	}
	_, pendErr := os.Lstat(pendingPath(dir))
	_, landErr := os.Lstat(filepath.Join(dir, landingName))
	if m.Status != StatusRunning && pendErr != nil && landErr != nil {
		return
	}
	l, err := lockRun(dir)
	if err != nil {
		return // alive: its own process is still at work
	}
	if m.Status == StatusRunning && m.Ended.IsZero() {
		m.Ended = deadEnd(dir, m) // before the sweep's own events are journaled
	}
	// An interrupted landing is settled first: one that took effect is
	// recorded as landed, and its pending apply is not undone.
	landed, _ := settleLanding(ctx, p, dir, m)
	_, pendErr = os.Lstat(pendingPath(dir))
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
	wasRunning := m.Status == StatusRunning
	if wasRunning {
		recoverDead(ctx, p, dir, m)
	}
	if landed != nil && wasRunning {
		appendEvent(dir, m.ID, journal.System, KindRunEnd, "run "+m.ID+": landed (its process ended after the landing took effect)", RunEnd{Status: StatusLanded})
	}
	if landed != nil {
		m.Status, m.Landing, m.Files, m.Error = StatusLanded, landed, landed.Files, ""
		if m.Ended.IsZero() {
			m.Ended = time.Now().UTC()
		}
	}
	_ = writeMeta(dir, m)
	l.release()
}

// recoverDead keeps the work of a run whose process died. The workspace is
// read only through the run's shadow git dir in the user's state dir (see
// shadow.go), never through a git dir found in the project.
func recoverDead(ctx context.Context, p *Project, dir string, m *Meta) {
	if m.InPlace {
		recoverDeadInPlaceObjects(ctx, p, dir, m) // before anything of the run's is removed
		recoverDeadInPlace(p, dir, m)
		return
	}
	patchPath := filepath.Join(dir, "patch.diff")
	wsDir := p.WorkDir(m.ID)
	wsReal := p.stateDirs("work", m.ID) == nil
	if shadow, err := shadowDir(p, m.ID); err == nil && wsReal && m.Snapshot != "" {
		if st, err := os.Lstat(shadow); err == nil && st.IsDir() {
			ws := &Workspace{Dir: wsDir, Shadow: shadow, Snapshot: Snapshot{Base: m.Base, Commit: m.Snapshot}, project: p}
			if ok := ws.recoverOverlay(ctx, m.ID); !ok {
				// An overlay whose shared checkout is gone: its upper layer
				// alone is no tree to diff; it is kept as it is below.
			} else if ch, err := ws.Diff(ctx); err == nil {
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
	if keepWS != "" {
		removeOverlayWork(overlayWorkDir(wsDir))
	}
	m.Status = StatusInterrupted
	m.Error = "the sentinel process ended without finishing the run (killed or crashed)"
	if err == nil {
		m.Recovery = dest
	}
	if m.Ended.IsZero() {
		m.Ended = time.Now().UTC()
	}
	appendEvent(dir, m.ID, journal.System, KindRunEnd, "run "+m.ID+": interrupted (found after the fact; work kept in "+dest+")", RunEnd{Status: StatusInterrupted})
	if evs, err := readRecord(dir); err == nil {
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

// recoverDeadInPlace ends the record of an in-place run whose process died:
// its work is in the project already, so there is nothing to keep; its
// shadow git dir and the agent's per-run state (which may hold a copy of
// the login) go.
func recoverDeadInPlace(p *Project, dir string, m *Meta) {
	removeShadow(p, m.ID)
	if a, err := inPlaceAgentDir(m.ID); err == nil {
		_ = os.RemoveAll(a)
	}
	m.Status = StatusInterrupted
	m.Error = "the sentinel process ended without finishing the run (killed or crashed)"
	if m.Ended.IsZero() {
		m.Ended = time.Now().UTC()
	}
	appendEvent(dir, m.ID, journal.System, KindRunEnd, "exec "+m.ID+": interrupted (found after the fact; its changes are in the project)", RunEnd{Status: StatusInterrupted})
	if evs, err := journal.ReadFile(filepath.Join(dir, "events.jsonl")); err == nil {
		m.Decisions = CountDecisions(evs)
		writeReports(dir, m, evs)
	}
}

// cleanupAdapter removes what the adapter made in the project for the run
// (geminicli: a .gemini/ to hide); it may be called more than once.
func (r *containment) cleanupAdapter() {
	if c, ok := r.adapter.(interface{ Cleanup() }); ok {
		c.Cleanup()
	}
}
