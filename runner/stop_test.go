package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/sandbox"
)

// stopRepo is a committed git repository with one file, and the user's
// state and config in temp dirs.
func stopRepo(t *testing.T) *Project {
	t.Helper()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "a.txt"), "a\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "init")
	p, err := FindProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// startStopRun starts a run (no sandbox: the test is about the run's
// stages) whose coder changes a.txt and whose check is slow.
func startStopRun(t *testing.T, p *Project, apply ApplyMode, check string) *Run {
	t.Helper()
	r, err := Start(context.Background(), Options{Project: p, Task: "edit a.txt",
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", "echo b > a.txt"}},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff},
		Landing: LandingOptions{Apply: apply, Checks: []Check{{Command: check, Source: "flag"}}}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitFile waits for path to exist (a check's sign that it runs).
func waitFile(t *testing.T, path string) {
	t.Helper()
	// A bound on a hung run, not a speed check.
	poll.Must(t, 60*time.Second, path+" appearing", func() bool { _, err := os.Stat(path); return err == nil })
}

// waitResult is r.Wait with a bound on a hung run.
func waitResult(t *testing.T, r *Run, what string) Result {
	t.Helper()
	select {
	case <-r.Done():
		return r.Wait()
	case <-time.After(20 * time.Second): // the check sleeps far longer than this
		t.Fatalf("%s: the run did not end after Stop", what)
		return Result{}
	}
}

// A stop during verification ends the run at once: the check's whole
// process group is killed, nothing lands, the work is in recovery and the
// run's end names the stage.
func TestStopDuringVerificationLandsNothing(t *testing.T) {
	t.Parallel()

	p := stopRepo(t)
	started := filepath.Join(t.TempDir(), "started")
	r := startStopRun(t, p, ApplyBranch, "sleep 600 & touch "+started+"; sleep 600; wait")
	waitFile(t, started)
	r.Stop()
	res := waitResult(t, r, "stop during verification")
	var stopped *Stopped
	if res.Status != StatusInterrupted || !errors.As(res.Err, &stopped) || stopped.During != stageVerification {
		t.Fatalf("result %s %v, want interrupted, stopped during verification", res.Status, res.Err)
	}
	if out, err := exec.Command("git", "-C", p.Root, "rev-parse", "--verify", "-q", "refs/heads/sentinel/"+r.ID()).Output(); err == nil {
		t.Fatalf("a branch landed: %s", out)
	}
	if _, err := os.Stat(filepath.Join(p.RecoveryDir(r.ID()), "patch.diff")); err != nil {
		t.Fatalf("the work is not in recovery: %v", err)
	}
	m, err := ReadMeta(p, r.ID())
	if err != nil || m.Status != StatusInterrupted {
		t.Fatalf("meta: %+v %v", m, err)
	}
}

// A run whose record says running is shown so only while its process
// lives (holds the run's lock): once the process is gone it is shown
// interrupted with an end, even if nothing could rewrite its record.
func TestDeadRunIsNeverShownRunning(t *testing.T) {
	t.Parallel()

	p := recordsProject(t)
	id, dir := newRunDir(t, p)
	started := time.Now().Add(-time.Hour).UTC()
	if err := writeMeta(dir, &Meta{ID: id, Status: StatusRunning, Started: started}); err != nil {
		t.Fatal(err)
	}
	l, err := lockRun(dir) // its process, alive
	if err != nil {
		t.Fatal(err)
	}
	metas, _, _ := ScanRuns(p)
	if len(metas) != 1 || metas[0].Status != StatusRunning {
		t.Fatalf("a live run: %+v", metas)
	}
	l.release() // the process died
	metas, _, _ = ScanRuns(p)
	if len(metas) != 1 || metas[0].Status != StatusInterrupted || metas[0].Ended.IsZero() {
		t.Fatalf("a dead run is shown as %s (ended %v)", metas[0].Status, metas[0].Ended)
	}
}

// A run stopped before its verification ran is verified by review with
// the checks it planned, not with whatever review would pick on its own.
func TestReviewReusesTheRunsPlannedChecks(t *testing.T) {
	t.Parallel()
	planned := []Check{{Command: "make test", Source: "flag"}}
	f := &Finished{Meta: &Meta{ID: "20260101-000000-0000e1", Status: StatusInterrupted, Planned: planned}}
	got := f.verifyChecks(ApproveOptions{Checks: []Check{{Command: "go test ./...", Source: "detected"}}})
	if len(got) != 1 || got[0].Command != "make test" {
		t.Fatalf("review verifies with %+v, want the run's planned make test", got)
	}
	if got := f.verifyChecks(ApproveOptions{Checks: []Check{{Command: "given"}}, ChecksGiven: true}); len(got) != 1 || got[0].Command != "given" {
		t.Fatalf("checks given to review come before the planned ones: %+v", got)
	}
	f.Meta.Checks = []CheckResult{{Check: Check{Command: "npm test"}}}
	if got := f.verifyChecks(ApproveOptions{}); len(got) != 1 || got[0].Command != "npm test" {
		t.Fatalf("checks that ran come first: %+v", got)
	}
}

// A restored apply takes away the directories it made, and only those.
func TestRestoreRemovesTheDirectoriesTheApplyMade(t *testing.T) {
	p := recordsProject(t)
	id, runDir := newRunDir(t, p)
	write(t, filepath.Join(p.Root, "a.txt"), "a\n")
	write(t, filepath.Join(p.Root, "keep/old.txt"), "old\n")
	plan := applyPlan{Files: map[string]blob{
		"0new/deep/c.txt": {data: []byte("C\n"), mode: 0o644},
		"a.txt":           {data: []byte("A\n"), mode: 0o644},
		"keep/x.txt":      {data: []byte("X\n"), mode: 0o644},
	}}
	crashAfterWrites = 1
	defer func() { crashAfterWrites = 0 }()
	writePlanUntilCrash(t, p, runDir, plan)
	if _, err := os.Stat(filepath.Join(p.Root, "0new/deep/c.txt")); err != nil {
		t.Fatalf("the simulated crash came before the first write: %v", err)
	}
	SweepStaleFor(t, p, id, StatusLanded)
	if _, err := os.Stat(filepath.Join(p.Root, "0new")); !os.IsNotExist(err) {
		t.Fatalf("the directory the apply made is still there: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, "keep/old.txt")); string(b) != "old\n" {
		t.Fatal("a directory that was there before lost its files")
	}
}

// A stop in the middle of a working-tree apply rolls it back: every file
// is as before, no record is left, and the caller hears it was rolled back.
func TestStopMidApplyRollsBack(t *testing.T) {
	p := recordsProject(t)
	_, runDir := newRunDir(t, p)
	write(t, filepath.Join(p.Root, "a.txt"), "a\n")
	write(t, filepath.Join(p.Root, "b.txt"), "b\n")
	plan := applyPlan{Files: map[string]blob{
		"a.txt":     {data: []byte("A\n"), mode: 0o644},
		"b.txt":     {data: []byte("B\n"), mode: 0o644},
		"new/c.txt": {data: []byte("C\n"), mode: 0o644},
	}}
	ctx, cancel := context.WithCancel(context.Background())
	crashAfterWrites, exit = 1, func(int) { cancel() } // the stop comes after one write
	defer func() { crashAfterWrites, exit = 0, os.Exit }()
	err := writePlan(ctx, p, runDir, plan)
	if !errors.Is(err, errLandingRolledBack) {
		t.Fatalf("a stopped apply: %v", err)
	}
	if got := readAll(t, p.Root, "a.txt", "b.txt", "new/c.txt"); got != "a.txt:a\nb.txt:b\nnew/c.txt:" {
		t.Fatalf("after the stop: %q", got)
	}
	if _, err := os.Stat(pendingPath(runDir)); err == nil {
		t.Fatal("the pending record survived the rollback")
	}
}

// A stop before the branch's ref changes lands nothing and leaves no
// landing record.
func TestStopBeforeTheRefLandsNothing(t *testing.T) {
	t.Parallel()

	id := "20260101-000000-0000e2"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
	ch, err := ws.Diff(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(runDir, "patch.diff")
	os.WriteFile(patch, ch.Patch, 0o600)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Land(ctx, p, snap, ch, ApplyBranch, id, "m", patch, runDir); err == nil {
		t.Fatal("a stopped landing succeeded")
	}
	if b := gitT(t, p.Root, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a branch landed: %s", b)
	}
	if _, err := os.Stat(filepath.Join(runDir, landingName)); err == nil {
		t.Fatal("a landing that never began left a record")
	}
}
