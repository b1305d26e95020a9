package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// patchFromRecovery computes the patch of run m from the workspace kept in
// its recovery directory, for a run that ended before its patch could be
// written (a full disk): the copy is read through a fresh shadow git dir
// seeded from the run's snapshot, never through a git dir found in it. A
// clone's copy is a whole tree; an overlay's holds only what the coder
// changed (its upper layer, whiteouts included), so it is read as the
// coder saw it: over the shared checkout of the snapshot (made again when
// it was swept), through the same read-only view a live run's patch is
// computed through.
func patchFromRecovery(ctx context.Context, p *Project, m *Meta) ([]byte, error) {
	if m.Workspace != WorkspaceClone && m.Workspace != WorkspaceOverlay {
		return nil, fmt.Errorf("run %s has no patch, and its recovery copy is not a tree Sentinel can compute one from (workspace %q); its work is in %s", m.ID, m.Workspace, p.RecoveryDir(m.ID))
	}
	if m.Snapshot == "" {
		return nil, fmt.Errorf("run %s never got a workspace; nothing to review", m.ID)
	}
	if err := p.stateDirs("recovery", m.ID); err != nil {
		return nil, err
	}
	wsDir := filepath.Join(p.RecoveryDir(m.ID), "workspace")
	if st, err := os.Lstat(wsDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("run %s has no patch to review and no workspace kept in recovery", m.ID)
	}
	shadow, err := scratchShadowDir(p)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(shadow)
	snap := Snapshot{Base: m.Base, Commit: m.Snapshot}
	ws := &Workspace{Dir: wsDir, Shadow: shadow, Snapshot: snap, project: p, Kind: WorkspaceClone}
	index := shadow + ".index"
	defer os.Remove(index)
	if m.Workspace == WorkspaceOverlay {
		helper, err := overlayHelper()
		if err != nil {
			return nil, err
		}
		lower, _, err := sharedCheckout(ctx, p, snap, m.ID)
		if err != nil {
			return nil, fmt.Errorf("check out the run's snapshot to read its recovery copy over: %w", err)
		}
		defer releaseCheckout(lower, m.ID)
		index = filepath.Join(lower, ".git", "index")
		ws.Kind, ws.Lower, ws.runID = WorkspaceOverlay, lower, m.ID
		ws.view = &sandbox.View{Helper: helper, Lower: lower, Upper: wsDir}
	} else if _, err := (gitCmd{dir: p.Root}).with("GIT_INDEX_FILE="+index).run(ctx, "read-tree", m.Snapshot); err != nil {
		return nil, fmt.Errorf("read the run's snapshot: %w", err)
	}
	if err := initShadow(ctx, p, shadow, index); err != nil {
		return nil, err
	}
	ch, err := ws.Diff(ctx)
	if err != nil {
		return nil, fmt.Errorf("compute the patch from the recovery copy: %w", err)
	}
	return ch.Patch, nil
}

// recoverPatch gives run m, found without a patch, the one its recovery
// copy holds: written to the run directory, its hash in the signed record,
// and a journal line saying where it came from. dir is the run directory;
// the caller holds the run's lock.
func recoverPatch(ctx context.Context, p *Project, dir string, m *Meta) ([]byte, error) {
	b, err := patchFromRecovery(ctx, p, m)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, errors.New("the run's recovery copy holds no change; there is nothing to land")
	}
	if err := writeFileIn(dir, "patch.diff", b, 0o600); err != nil {
		return nil, err
	}
	m.PatchSHA256 = sha256Hex(b)
	if m.Files, err = patchNames(b); err != nil {
		return nil, err
	}
	if err := writeMeta(dir, m); err != nil {
		return nil, err
	}
	appendEvent(dir, m.ID, journal.System, KindPatch, fmt.Sprintf("patch: %d file(s) changed (computed now from the recovery copy: the run ended before it was written)", len(m.Files)),
		PatchNote{Files: m.Files, Bytes: len(b), From: "recovery"})
	return b, nil
}
