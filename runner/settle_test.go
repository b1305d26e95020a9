package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The service settles a run whose process died in the middle of a landing
// from the run's record alone (SettleRun), so sentinel status and the
// console agree with the repository: the branch points at the run's
// commit, and the run says landed.
func TestSettleRunFinishesALandingCutShort(t *testing.T) {
	ctx := context.Background()
	id := "20260101-000000-0000e2"
	p, ws, snap, runDir := wsRun(t, id)
	write(t, filepath.Join(ws.Dir, "a.txt"), "the coder's a\n")
	ch, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(runDir, "patch.diff")
	if err := os.WriteFile(patch, ch.Patch, 0o600); err != nil {
		t.Fatal(err)
	}
	m := &Meta{ID: id, Status: StatusRunning, Started: time.Now().UTC(), Apply: ApplyBranch, Base: snap.Base, Snapshot: snap.Commit,
		Files: ch.Files, PatchSHA256: sha256Hex(ch.Patch)}
	if err := writeMeta(runDir, m); err != nil {
		t.Fatal(err)
	}
	landUntilCrash(t, p, snap, ch, ApplyBranch, id, patch, runDir, "branch-landed")

	if _, err := SettleRun(ctx, filepath.Join(p.Root, "sub"), id); err == nil {
		t.Fatal("settled a run through a path that is not the project's top level")
	}
	got, err := SettleRun(ctx, p.Root, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusLanded || got.Landing == nil || got.Landing.Branch != "sentinel/"+id {
		t.Fatalf("the branch landed but the run says %s %+v", got.Status, got.Landing)
	}
	if _, err := os.Stat(filepath.Join(runDir, landingName)); err == nil {
		t.Error("the landing record outlived the settling")
	}
	if c := gitT(t, p.Root, "rev-parse", "sentinel/"+id); c != got.Landing.Commit {
		t.Fatalf("branch at %s, record says %s", c, got.Landing.Commit)
	}
}
