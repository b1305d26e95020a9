package runner

// The overlay workspace: where the machine allows it, a run's workspace is
// not a clone but the upper layer of an overlay over one shared, read-only
// checkout of the snapshot's tree (checkouts.go), mounted by the sandbox
// (sandbox.Overlay). Making it costs a few small files, whatever the size of
// the project. On the host the workspace directory holds exactly what the
// coder changed (deletions as overlayfs whiteouts); Sentinel computes the
// change through a read-only view of the merged tree (sandbox.View) with the
// same hardened git, the same shadow git dir and the same commands as for a
// clone, so the patch is byte for byte what a clone would give.
//
// The workspace's .git is the shared checkout's, merged with the run's own
// HEAD and branch (written into the upper layer before the coder starts):
// the coder's writes to it land in the upper layer, never in the shared
// checkout or the real project; .git/hooks and .git/config stay read-only
// as in a clone.
//
// Where overlay is not available (no sandbox, another OS, a kernel or file
// system without unprivileged overlayfs, a coder that reads and writes the
// workspace from the host: ACP agents), or SENTINEL_WORKSPACE=clone asks,
// the clone is made (workspace.go). The run's first line says which.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/sandbox"
)

// Workspace kinds.
const (
	WorkspaceClone   = "clone"
	WorkspaceOverlay = "overlay"
)

// WorkspaceEnv names the variable that forces a kind: "clone" never makes
// an overlay workspace (for a machine where it misbehaves); "overlay"
// refuses to start without one.
const WorkspaceEnv = "SENTINEL_WORKSPACE"

// overlayHelper is the program the overlay probe's sandbox and the overlay
// view re-execute: sentinel-helper beside sentinel when it is there (a bare
// Go program's start: every git call on the merged view pays one), else the
// sentinel binary itself, which answers the same way (internal/helperbin).
// Tests that are not the sentinel binary point it at one.
var overlayHelper = helperbin.Path

// chooseWorkspace says which kind of workspace a run gets, and why not an
// overlay when it gets a clone.
func chooseWorkspace(ctx context.Context, p *Project, mode sandbox.Mode, hostIO bool) (kind, why string, err error) {
	want := os.Getenv(WorkspaceEnv)
	why = overlayUnavailable(ctx, p, mode, hostIO, want)
	switch {
	case want == WorkspaceOverlay && why != "":
		return "", "", fmt.Errorf("%s=overlay, but an overlay workspace is not possible here: %s; unset it to use a clone", WorkspaceEnv, why)
	case why != "":
		return WorkspaceClone, why, nil
	}
	return WorkspaceOverlay, "", nil
}

func overlayUnavailable(ctx context.Context, p *Project, mode sandbox.Mode, hostIO bool, want string) string {
	switch {
	case want == WorkspaceClone:
		return WorkspaceEnv + "=clone"
	case want != "" && want != WorkspaceOverlay:
		return fmt.Sprintf("%s=%q is neither clone nor overlay", WorkspaceEnv, want)
	case runtime.GOOS != "linux":
		return "overlay workspaces need Linux"
	case mode == sandbox.ModeOff:
		return "the sandbox is off"
	case hostIO:
		return "this coder reads and writes the workspace through Sentinel"
	}
	helper, err := overlayHelper()
	if err != nil {
		return err.Error()
	}
	root, err := checkoutsRoot()
	if err != nil {
		return err.Error()
	}
	work := root
	if p != nil {
		work = filepath.Dir(p.WorkDir("x"))
	}
	for _, d := range []string{root, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err.Error()
		}
	}
	if err := overlayWorksCached(ctx, helper, mode, root, work); err != nil {
		return "unprivileged overlayfs is not available: " + err.Error()
	}
	return ""
}

// workspaceLabel is the run's first line's part on its workspace.
func workspaceLabel(kind, whyClone string) string {
	if kind == WorkspaceOverlay {
		return "workspace: overlay over a shared read-only checkout"
	}
	return "workspace: clone (no overlay: " + whyClone + ")"
}

// hostWorkspaceIO reports whether a coder's adapter reads or writes the
// workspace from the host (ACP agents delegate file access to Sentinel),
// which sees only an overlay's upper layer.
func hostWorkspaceIO(a Adapter) bool { return coder.TransportOf(a) == coder.ACP }

// OverlayStatus is `sentinel doctor`'s line: nil when sandboxed runs here
// get overlay workspaces, else why they get clones. It probes in the
// user's state dir (a project's .sentinel/work is usually on the same file
// system).
func OverlayStatus(ctx context.Context) error {
	if why := overlayUnavailable(ctx, nil, sandbox.ModeAuto, false, os.Getenv(WorkspaceEnv)); why != "" {
		return errors.New(why)
	}
	return nil
}

// CreateOverlayWorkspace makes run id's workspace at dir as the upper layer
// of an overlay over the shared checkout of snap (made when missing).
func CreateOverlayWorkspace(ctx context.Context, p *Project, snap Snapshot, dir, shadowDir, branch, id string) (*Workspace, error) {
	helper, err := overlayHelper()
	if err != nil {
		return nil, err
	}
	lower, _, err := sharedCheckout(ctx, p, snap, id)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			releaseCheckout(lower, id)
		}
	}()
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return nil, err
	}
	for _, d := range []string{dir, overlayWorkDir(dir)} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return nil, fmt.Errorf("create workspace: %w", err)
		}
	}
	// The run's own branch at the snapshot, on top of the shared .git.
	gitDir := filepath.Join(dir, ".git")
	ref := filepath.Join(gitDir, "refs", "heads", filepath.FromSlash(branch))
	if err := os.MkdirAll(filepath.Dir(ref), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(ref, []byte(snap.Commit+"\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(gitDir, "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644); err != nil {
		return nil, err
	}
	if err := initShadow(ctx, p, shadowDir, filepath.Join(lower, ".git", "index")); err != nil {
		return nil, err
	}
	ok = true
	return &Workspace{Dir: dir, Shadow: shadowDir, Snapshot: snap, project: p,
		Kind: WorkspaceOverlay, Lower: lower, runID: id, view: &sandbox.View{Helper: helper, Lower: lower, Upper: dir}}, nil
}

// recoverOverlay makes w, a dead run's workspace found at its place, read
// through its shared checkout when it was an overlay (its work dir is beside
// it: .sentinel/work is no coder's to write). It reports false when it was
// one but the checkout is gone or fails verification.
func (w *Workspace) recoverOverlay(ctx context.Context, id string) bool {
	if st, err := os.Lstat(overlayWorkDir(w.Dir)); err != nil || !st.IsDir() {
		return true // a clone
	}
	helper, err := overlayHelper()
	if err != nil {
		return false
	}
	tree, err := (gitCmd{dir: w.project.Root}).line(ctx, "rev-parse", "--verify", w.Snapshot.Commit+"^{tree}")
	if err != nil {
		return false
	}
	root, err := checkoutsRoot()
	if err != nil {
		return false
	}
	entry := filepath.Join(root, projectKey(w.project), tree)
	if verifyCheckout(w.project, entry, tree) != nil {
		return false
	}
	w.Kind, w.Lower, w.runID = WorkspaceOverlay, filepath.Join(entry, "tree"), id
	w.view = &sandbox.View{Helper: helper, Lower: w.Lower, Upper: w.Dir}
	return true
}

// overlayWorkDir is overlayfs' work dir of the workspace at dir.
func overlayWorkDir(dir string) string { return dir + ".ovlwork" }

// Overlay is what the sandbox needs to mount the workspace (nil for a clone).
func (w *Workspace) Overlay() *sandbox.Overlay {
	if w.Kind != WorkspaceOverlay {
		return nil
	}
	return &sandbox.Overlay{Lower: w.Lower, Work: overlayWorkDir(w.Dir)}
}

// readDir is where the host reads the workspace's files before the coder
// starts: an overlay's upper layer holds only Sentinel's own .git files
// then, so its shared checkout.
func (w *Workspace) readDir() string {
	if w.Kind == WorkspaceOverlay {
		return w.Lower
	}
	return w.Dir
}

// wrapView runs a git command on the merged view (overlay workspaces).
func (w *Workspace) wrapView() func(*exec.Cmd) {
	if w.view == nil {
		return nil
	}
	return w.view.Wrap
}

// removeDir removes a workspace directory and, for an overlay, its work dir
// (overlayfs leaves a mode-0 directory there) and its lease.
func (w *Workspace) removeDir() {
	if w.inPlace {
		return // Dir is the person's project itself
	}
	_ = os.RemoveAll(w.Dir)
	if w.Kind == WorkspaceOverlay {
		removeOverlayWork(overlayWorkDir(w.Dir))
		releaseCheckout(w.Lower, w.runID)
		// The run is over: bound the shared checkouts now, off any run's
		// start (removing a large one takes a while).
		_, _ = SweepCheckouts(CheckoutKeep, CheckoutMaxAge)
	}
}

func removeOverlayWork(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}

// mergedPath is where the workspace file at parts (relative) is read on the
// host, as the coder sees it: the workspace's own file, or, for an overlay
// whose upper layer does not have it, the shared checkout's. A whiteout on
// the way (the coder deleted it) is no file (""); an opaque directory the
// coder made hides the checkout's below it. A symlink on the way is no file
// either: the coder (or the project) chose where it points, and Sentinel
// reads on the host. What is read is still the coder's to write: callers
// treat it as hostile.
func (w *Workspace) mergedPath(parts ...string) string {
	rel := filepath.Join(parts...)
	if w.Kind != WorkspaceOverlay || w.Lower == "" {
		return noLinks(w.Dir, rel)
	}
	p := w.Dir
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, c)
		st, err := os.Lstat(p)
		switch {
		case err != nil:
			return noLinks(w.Lower, rel) // not in the upper layer: the checkout's
		case st.Mode()&os.ModeCharDevice != 0, st.Mode()&os.ModeSymlink != 0:
			return "" // a whiteout, or a link
		case st.IsDir() && overlayOpaque(p):
			return noLinks(w.Dir, rel)
		}
	}
	return filepath.Join(w.Dir, rel)
}

// noLinks is dir/rel when no part of rel below dir is a symlink, else "".
func noLinks(dir, rel string) string {
	p := dir
	for _, c := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, c)
		if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
			return ""
		}
	}
	return filepath.Join(dir, rel)
}
