package runner

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// sentinel review re-verifying a change reports each check's progress as
// it runs (which check, how long, its last line) to whoever watches the
// review (Finished.OnEvent), often enough that the screen is never blank
// for long.
func TestReviewReportsVerificationProgress(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-0000f7"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
	if _, err := keepForRecovery(p, id, ws.Dir, filepath.Join(runDir, "patch.diff")); err != nil {
		t.Fatal(err)
	}
	m := &Meta{ID: id, Status: StatusFailed, Started: time.Now().UTC(), Apply: ApplyBranch, Base: snap.Base, Snapshot: snap.Commit, Workspace: WorkspaceClone}
	if err := writeMeta(runDir, m); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFinished(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mu sync.Mutex
	var progress []CheckProgress
	var sawResult bool
	f.OnEvent = func(_ journal.Lane, kind journal.Kind, _ string, data any) {
		mu.Lock()
		defer mu.Unlock()
		switch kind {
		case KindVerifyProgress:
			if pr, ok := data.(CheckProgress); ok && !sawResult {
				progress = append(progress, pr)
			}
		case KindVerify:
			sawResult = true
		}
	}
	// The check prints, then runs for longer than review's progress
	// interval: at least one report comes while it runs.
	check := "echo working on it; sleep " + (progressEvery + 2*time.Second).String()
	if _, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Sandbox: sandbox.ModeOff, Checks: []Check{{Command: check, Source: "flag"}}}); err != nil {
		t.Fatal(err)
	}
	// Steps before the check (the clean copy) report too when they pass a
	// second, as on a loaded machine: the check's own report is looked for.
	var seen bool
	for _, pr := range progress {
		if pr.Command == check && pr.LastLine == "working on it" && pr.Elapsed() > 0 {
			seen = true
		}
	}
	if !seen {
		t.Fatalf("no progress while the check ran: %+v", progress)
	}
}
