package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// landUntilCrash lands ch as mode with the process "killed" at point, as
// kill -9 would: nothing after it runs.
func landUntilCrash(t *testing.T, p *Project, snap Snapshot, ch Change, mode ApplyMode, id, patch, runDir, point string) {
	t.Helper()
	crashAt = point
	exit = func(int) { panic("crash") }
	defer func() { crashAt, exit = "", os.Exit }()
	defer func() {
		if recover() == nil {
			t.Fatalf("the landing never reached %s", point)
		}
	}()
	Land(context.Background(), p, snap, ch, mode, id, "m", patch, runDir)
}

// A landing killed at each of its steps is settled by the next command
// that reads the runs, so the run's record and the repository agree: a
// branch that points at the run's commit, or a working tree every file of
// which was written, is recorded as landed; anything earlier lands nothing.
func TestInterruptedLandingIsSettledFromItsRecord(t *testing.T) {
	cases := []struct {
		point  string
		mode   ApplyMode
		status Status // what the run said when it was killed
		landed bool
	}{
		{"branch-intent", ApplyBranch, StatusRunning, false},
		{"branch-landed", ApplyBranch, StatusRunning, true},
		{"branch-landed", ApplyBranch, StatusPending, true}, // sentinel review --approve
		{"worktree-written", ApplyWorktree, StatusPending, false},
		{"worktree-applied", ApplyWorktree, StatusPending, true},
	}
	for _, c := range cases {
		t.Run(c.point+"/"+string(c.status), func(t *testing.T) {
			ctx := context.Background()
			id := "20260101-000000-0000d1"
			p, ws, snap, runDir := wsRun(t, id)
			write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
			write(t, filepath.Join(ws.Dir, "made/new.txt"), "new\n")
			ch, err := ws.Diff(ctx)
			if err != nil {
				t.Fatal(err)
			}
			patch := filepath.Join(runDir, "patch.diff")
			os.WriteFile(patch, ch.Patch, 0o600)
			m := &Meta{ID: id, Status: c.status, Started: time.Now().UTC(), Apply: c.mode, Base: snap.Base, Snapshot: snap.Commit,
				Files: ch.Files, PatchSHA256: sha256Hex(ch.Patch)}
			if err := writeMeta(runDir, m); err != nil {
				t.Fatal(err)
			}
			before := readAll(t, p.Root, "a.txt", "made/new.txt")
			landUntilCrash(t, p, snap, ch, c.mode, id, patch, runDir, c.point)

			SweepStale(ctx, p)
			got, err := ReadMeta(p, id)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(runDir, landingName)); err == nil {
				t.Error("the landing record outlived the sweep")
			}
			branch := gitT(t, p.Root, "branch", "--list", "sentinel/"+id)
			files := readAll(t, p.Root, "a.txt", "made/new.txt")
			if !c.landed {
				if got.Status == StatusLanded || got.Landing != nil {
					t.Fatalf("recorded as landed: %s %+v", got.Status, got.Landing)
				}
				if branch != "" || files != before {
					t.Fatalf("something landed: branch %q, files %q", branch, files)
				}
				if c.status == StatusRunning && got.Recovery == "" {
					t.Fatalf("the dead run's work was not kept in recovery: %+v", got)
				}
				return
			}
			if got.Status != StatusLanded || got.Landing == nil || got.Landing.Mode != c.mode {
				t.Fatalf("the landing took effect but the run says %s %+v", got.Status, got.Landing)
			}
			switch c.mode {
			case ApplyBranch:
				if branch == "" || gitT(t, p.Root, "rev-parse", "sentinel/"+id) != got.Landing.Commit {
					t.Fatalf("branch %q does not hold the recorded commit %s", branch, got.Landing.Commit)
				}
			case ApplyWorktree:
				if files != "a.txt:the coder's a\nmade/new.txt:new\n" {
					t.Fatalf("the applied files were undone: %q", files)
				}
			}
			// review sees a landed run, not a branch in its way.
			if _, err := OpenFinished(ctx, p, id); err == nil || !strings.Contains(err.Error(), "already landed") {
				t.Fatalf("review of the settled run: %v", err)
			}
		})
	}
}

// A run that ended before its patch was written (a full disk) can still
// be reviewed and landed: the patch is computed from its recovery copy.
func TestRecoveryCopyWithoutAPatchCanLand(t *testing.T) {
	t.Parallel()

	ctx := context.Background()
	id := "20260101-000000-0000f1"
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
		t.Fatalf("review of a run without patch.diff: %v", err)
	}
	defer f.Close()
	if !strings.Contains(string(f.Patch), "+the coder's a") || f.Meta.PatchSHA256 != sha256Hex(f.Patch) {
		t.Fatalf("patch from the recovery copy:\n%s", f.Patch)
	}
	l, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, p.Root, "show", l.Branch+":a.txt"); got != "the coder's a" {
		t.Fatalf("landed a.txt = %q", got)
	}
}
