package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An overlay run that ended before its patch was written keeps only its
// upper layer in recovery; review computes the patch from it over the
// snapshot — made again when the shared checkout was swept meanwhile — and
// it is byte for byte the patch the live run would have written.
func TestOverlayRecoveryCopyWithoutAPatchCanLand(t *testing.T) {
	useOverlay(t)
	ctx := context.Background()
	p := changeRepo(t)
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := newWorkspaces(t, p, snap, WorkspaceOverlay)
	id := filepath.Base(ws.Dir)
	runInSandbox(t, ws, changeScript)
	want, err := ws.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	runDir := p.RunDir(id)
	if err := os.MkdirAll(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := keepForRecovery(p, id, ws.Dir, filepath.Join(runDir, "patch.diff")); err != nil {
		t.Fatal(err)
	}
	releaseCheckout(ws.Lower, id)
	if err := removeCheckout(filepath.Dir(ws.Lower)); err != nil {
		t.Fatal(err)
	}
	m := &Meta{ID: id, Status: StatusFailed, Started: time.Now().UTC(), Apply: ApplyBranch, Base: snap.Base, Snapshot: snap.Commit, Workspace: WorkspaceOverlay}
	if err := writeMeta(runDir, m); err != nil {
		t.Fatal(err)
	}
	f, err := OpenFinished(ctx, p, id)
	if err != nil {
		t.Fatalf("review of an overlay run without patch.diff: %v", err)
	}
	defer f.Close()
	if !bytes.Equal(f.Patch, want.Patch) || f.Meta.PatchSHA256 != sha256Hex(want.Patch) {
		t.Fatalf("patch from the overlay's recovery copy:\n%s\nwant:\n%s", f.Patch, want.Patch)
	}
	l, err := f.Approve(ctx, nil, ApplyBranch, ApproveOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, p.Root, "show", l.Branch+":deep/er/file.txt"); got != "nested" {
		t.Fatalf("landed deep/er/file.txt = %q", got)
	}
}
