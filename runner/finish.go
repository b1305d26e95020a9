package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// finish computes the patch, lands it or keeps it for recovery, and closes
// everything the run opened.
func (r *Run) finish(interrupted bool, code int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if r.cancel != nil {
		r.cancel()
	}
	res := Result{}
	change, derr := r.ws.Diff(ctx)
	patchPath := filepath.Join(r.dir, "patch.diff")
	if derr == nil {
		derr = os.WriteFile(patchPath, change.Patch, 0o600)
	}
	if derr == nil {
		r.emit(journal.System, "patch", fmt.Sprintf("patch: %d file(s) changed", len(change.Files)),
			map[string]any{"files": change.Files, "path": patchPath, "bytes": len(change.Patch)})
	}
	var verifyErr error
	if derr == nil {
		r.meta.Files = change.Files
	}
	if !interrupted && derr == nil && code == 0 && !change.Empty() {
		results, err := r.verify(ctx, patchPath, r.opts.Checks)
		r.meta.Checks = results
		verifyErr = err
		for _, c := range results {
			if !c.Passed() && verifyErr == nil {
				verifyErr = fmt.Errorf("verification failed: %s exited %d on a clean copy", c.Command, c.ExitCode)
			}
		}
		if len(r.opts.Checks) > 0 {
			text := fmt.Sprintf("verification passed: %d check(s) on a clean copy", len(results))
			if verifyErr != nil {
				text = verifyErr.Error()
			}
			r.emit(journal.System, "verify-result", text, map[string]any{"passed": verifyErr == nil, "checks": results})
		}
	}
	switch {
	case interrupted:
		res.Status = StatusInterrupted
		res.Err = fmt.Errorf("run %s was interrupted", r.id)
	case derr != nil:
		res.Status = StatusFailed
		res.Err = fmt.Errorf("compute the patch: %w", derr)
	case code != 0:
		res.Status = StatusFailed
		res.Err = fmt.Errorf("coder %s exited with status %d", r.adapter.Name(), code)
	case verifyErr != nil:
		res.Status = StatusFailed
		res.Err = verifyErr
	default:
		l, err := Land(ctx, r.opts.Project, r.ws.Snapshot, change, r.opts.Apply, r.id, r.commitMessage(change), patchPath, r.dir)
		if err != nil {
			res.Status = StatusFailed
			res.Err = fmt.Errorf("land: %w", err)
			break
		}
		res.Status = StatusLanded
		res.Landing = &l
		r.emit(journal.System, "landed", landingText(l), l)
	}
	if res.Status != StatusLanded {
		r.emit(journal.System, "error", res.Err.Error(), nil)
		dest, err := keepForRecovery(r.opts.Project, r.id, r.ws.Dir, patchPath)
		if err != nil {
			r.emit(journal.System, "error", "keep the work for recovery: "+err.Error(), nil)
		} else {
			res.Recovery = dest
			r.emit(journal.System, "recovery", "work kept in "+dest, map[string]any{"dir": dest})
		}
	} else {
		_ = os.RemoveAll(r.ws.Dir)
	}
	if r.broker != nil {
		r.broker.Close()
	}
	if r.sb != nil {
		_ = r.sb.Close()
	}
	r.meta.Status = res.Status
	r.meta.Ended = time.Now().UTC()
	r.meta.Landing = res.Landing
	r.meta.Recovery = res.Recovery
	if res.Err != nil {
		r.meta.Error = res.Err.Error()
	}
	r.emit(journal.System, "run-end", fmt.Sprintf("run %s: %s", r.id, res.Status), map[string]any{"status": res.Status})
	_ = r.journal.Close()
	<-r.reportsDone
	evs, _ := journal.ReadFile(filepath.Join(r.dir, "events.jsonl"))
	r.meta.Decisions = CountDecisions(evs)
	_ = writeMeta(r.dir, r.meta)
	_ = writeAtomic(filepath.Join(r.dir, "PROGRESS.md"), renderProgress(r.meta, evs, time.Now()))
	_ = writeAtomic(filepath.Join(r.dir, "DECISIONS.md"), renderDecisions(r.meta, evs))
	_ = writeAtomic(filepath.Join(r.dir, "FINAL_REPORT.md"), renderFinalReport(r.meta, evs, FlaggedPaths(r.meta.Files)))
	r.lock.release()
	r.result = res
	close(r.done)
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
	return fmt.Sprintf("sentinel: %s\n\n%d file(s) changed by coder %s.\n\nSentinel-Run: %s\nSentinel-Coder: %s\nSentinel-Verified: %s\nSentinel-Approvals: %d allowed, %d denied\n",
		title, len(ch.Files), r.adapter.Name(), r.id, r.adapter.Name(), verified, d.Allowed, d.Denied)
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
func keepForRecovery(p *Project, id, wsDir, patchPath string) (string, error) {
	dest := p.RecoveryDir(id)
	if err := os.MkdirAll(dest, 0o700); err != nil {
		return "", err
	}
	if b, err := os.ReadFile(patchPath); err == nil {
		if err := os.WriteFile(filepath.Join(dest, "patch.diff"), b, 0o600); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(wsDir); err == nil {
		if err := os.Rename(wsDir, filepath.Join(dest, "workspace")); err != nil {
			return "", err
		}
	}
	return dest, nil
}

// CountDecisions totals approval decisions from a journal.
func CountDecisions(evs []journal.Event) *Decisions {
	d := &Decisions{By: map[string]int{}}
	for _, ev := range evs {
		if ev.Lane != journal.Approval || ev.Kind != "decision" {
			continue
		}
		var dec struct {
			Decision string `json:"decision"`
			By       string `json:"by"`
		}
		if ev.Decode(&dec) != nil {
			continue
		}
		if dec.Decision == "allow" {
			d.Allowed++
		} else {
			d.Denied++
		}
		by, _, _ := strings.Cut(dec.By, ":")
		d.By[by]++
	}
	return d
}

// SweepStale finds runs whose process died (kill -9, a crash, a closed
// terminal) and keeps their work in recovery. The real project was never
// touched by such a run: landing is the last step and is all or nothing.
func SweepStale(ctx context.Context, p *Project) {
	metas, _ := ListRuns(p)
	for _, m := range metas {
		if m.Status != StatusRunning {
			continue
		}
		dir := p.RunDir(m.ID)
		if alive(dir) {
			continue
		}
		l, err := lockRun(dir)
		if err != nil {
			continue
		}
		patchPath := filepath.Join(dir, "patch.diff")
		wsDir := p.WorkDir(m.ID)
		if _, err := os.Stat(wsDir); err == nil && m.Snapshot != "" {
			ws := &Workspace{Dir: wsDir, Shadow: filepath.Join(dir, "shadow.git"), Snapshot: Snapshot{Base: m.Base, Commit: m.Snapshot}, project: p}
			if ch, err := ws.Diff(ctx); err == nil {
				_ = os.WriteFile(patchPath, ch.Patch, 0o600)
			}
		}
		dest, err := keepForRecovery(p, m.ID, wsDir, patchPath)
		m.Status = StatusInterrupted
		m.Error = "the sentinel process ended without finishing the run (killed or crashed)"
		if err == nil {
			m.Recovery = dest
		}
		if m.Ended.IsZero() {
			m.Ended = time.Now().UTC()
		}
		if evs, err := journal.ReadFile(filepath.Join(dir, "events.jsonl")); err == nil {
			m.Decisions = CountDecisions(evs)
		}
		if j, err := journal.Open(filepath.Join(dir, "events.jsonl"), m.ID); err == nil {
			_, _ = j.Append(journal.System, "run-end", "run "+m.ID+": interrupted (found after the fact; work kept in "+dest+")", map[string]any{"status": StatusInterrupted})
			_ = j.Close()
		}
		_ = writeMeta(dir, m)
		l.release()
	}
}
