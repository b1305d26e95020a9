package runner

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// The workspace stage: a run's disposable copy of the project from its
// making (a snapshot of HEAD plus the person's uncommitted changes, cloned
// with its shadow git dir in the user's state dir) to its end (removed once
// the change landed, else kept in recovery with the patch). workspace.go
// holds the copy itself and how its change is read.
//
// It never touches the person's checkout and never lands anything: the
// landing stage does (stage_landing.go).

// openWorkspace snapshots the project and makes run id's workspace, and
// journals where it is. The snapshot is returned even when the workspace
// could not be made, for the run's record.
func openWorkspace(ctx context.Context, p *Project, id, runDir, kind string, limits Limits, emit func(journal.Lane, journal.Kind, string, any)) (Snapshot, *Workspace, error) {
	t0 := time.Now()
	snap, err := TakeSnapshot(ctx, p, runDir)
	if err != nil {
		return snap, nil, err
	}
	shadow, err := shadowDir(p, id) // in the user's state dir, see shadow.go
	if err != nil {
		return snap, nil, err
	}
	var ws *Workspace
	if kind == WorkspaceOverlay {
		ws, err = CreateOverlayWorkspace(ctx, p, snap, p.WorkDir(id), shadow, "sentinel/"+id, id)
	} else {
		ws, err = CreateWorkspace(ctx, p, snap, p.WorkDir(id), shadow, "sentinel/"+id)
	}
	if err != nil {
		return snap, nil, err
	}
	ws.Limits = limits
	what := "workspace (clone)"
	if ws.Kind == WorkspaceOverlay {
		what = "workspace (overlay over a shared checkout)"
	}
	msg := fmt.Sprintf("%s ready in %s at %s (snapshot %s", what, time.Since(t0).Round(time.Millisecond), ws.Dir, short(snap.Commit))
	if snap.Dirty {
		msg += ", includes your uncommitted changes"
	}
	emit(journal.System, KindWorkspace, msg+")", WorkspaceNote{Dir: ws.Dir, Base: snap.Base, Snapshot: snap.Commit, Dirty: snap.Dirty, Kind: ws.Kind})
	return snap, ws, nil
}

// agentDir is a real agent's per-run state directory, beside the
// workspace (see Run.agentStateDir).
// In place (stage_inplace.go) it is in the person's cache dir instead.
func (w *Workspace) agentDir() string {
	if w.agent != "" {
		return w.agent
	}
	return w.Dir + ".agent"
}

// dropShadow removes run id's shadow git dir once its patch is computed.
func (w *Workspace) dropShadow(p *Project, id string) { removeShadow(p, id) }

// keep ends the workspace of a finished run: removed when its change
// landed (a leftover copy is only disk space, swept with the run), else
// moved with the patch at patchPath to the run's recovery directory,
// which it returns.
func (w *Workspace) keep(p *Project, id, patchPath string, landed bool) (string, error) {
	if w.inPlace {
		return "", nil // the person's project itself: nothing to keep or remove
	}
	if landed {
		w.removeDir()
		return "", nil
	}
	dest, err := keepForRecovery(p, id, w.Dir, patchPath)
	w.removeDir() // an overlay's work dir and lease; the changes moved to recovery
	return dest, err
}

// discard removes the workspace, the agent's state beside it and the
// shadow git dir of a run that never started (best effort: SweepStale
// retries). In place it first stops the watch on the place's git dirs
// (openInPlace started it; no finish will stop it).
func (w *Workspace) discard(p *Project, id string) {
	if w.stopGitWatch != nil {
		w.stopGitWatch()
	}
	w.removeDir()
	_ = os.RemoveAll(w.agentDir())
	removeShadow(p, id)
}
