package runner

import (
	"context"
	"path/filepath"
	"strings"
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

// sentinel review says at once what comes before the change lands: the
// steps after it (the patch, the accepted part, the clean copy) report
// only once they have taken a second, and at load 20 the terminal stayed
// blank for 2-3 s after --approve or the review screen closed. Nothing is
// timed: the first thing the watcher hears must be the announcement, before
// any step or check reports.
func TestReviewSaysAtOnceThatItVerifies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, id string
		part     bool
		want     string
	}{
		{"whole", "20260101-000000-0000f8", false, "failed before its change passed verification: verifying it on a clean copy before it lands"},
		{"part", "20260101-000000-0000f9", true, "verifying the part you accepted on a clean copy before it lands"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			p, ws, snap, runDir := wsRun(t, tc.id)
			write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
			if _, err := keepForRecovery(p, tc.id, ws.Dir, filepath.Join(runDir, "patch.diff")); err != nil {
				t.Fatal(err)
			}
			m := &Meta{ID: tc.id, Status: StatusFailed, Started: time.Now().UTC(), Apply: ApplyBranch, Base: snap.Base, Snapshot: snap.Commit, Workspace: WorkspaceClone}
			if err := writeMeta(runDir, m); err != nil {
				t.Fatal(err)
			}
			f, err := OpenFinished(ctx, p, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var mu sync.Mutex
			var kinds []journal.Kind
			var first string
			f.OnEvent = func(_ journal.Lane, kind journal.Kind, _ string, data any) {
				mu.Lock()
				defer mu.Unlock()
				if len(kinds) == 0 {
					if pr, ok := data.(CheckProgress); ok {
						first = pr.Command
					}
				}
				kinds = append(kinds, kind)
			}
			var accepted []byte
			if tc.part {
				accepted = f.Patch
			}
			if _, err := f.Approve(ctx, accepted, ApplyBranch, ApproveOptions{Sandbox: sandbox.ModeOff, Checks: []Check{{Command: "true", Source: "flag"}}}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(kinds) == 0 || kinds[0] != KindVerifyProgress || !strings.HasSuffix(first, tc.want) {
				t.Fatalf("the first thing said was not %q but %q (events %v)", tc.want, first, kinds)
			}
		})
	}
}
