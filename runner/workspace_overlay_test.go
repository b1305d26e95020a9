package runner

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/sandbox"
)

// useOverlay points the overlay helper at a built sentinel binary and the
// user's state at a temp dir; it skips where overlay workspaces cannot be
// made (unless CI=true).
func useOverlay(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("overlay workspaces are Linux-only")
	}
	bin, err := testbin.Sentinel()
	if err != nil {
		t.Fatal(err)
	}
	old := overlayHelper
	overlayHelper = func() (string, error) { return bin, nil }
	t.Cleanup(func() { overlayHelper = old })
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // TestSweepCheckouts sweeps every checkout there
	t.Setenv(WorkspaceEnv, "")
	if err := sandbox.OverlayWorks(context.Background(), bin, sandbox.ModeAuto, t.TempDir(), t.TempDir()); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("overlay not available (CI=true): %v", err)
		}
		t.Skipf("overlay not available here: %v", err)
	}
}

// changeRepo is a repository with every kind of file a change can touch.
func changeRepo(t *testing.T) *Project {
	t.Helper()
	p := dirtyRepo(t)
	dir := p.Root
	write(t, filepath.Join(dir, "rename-me.txt"), "moving\n")
	write(t, filepath.Join(dir, "gone", "one.txt"), "1\n")
	write(t, filepath.Join(dir, "gone", "two.txt"), "2\n")
	write(t, filepath.Join(dir, "script.sh"), "#!/bin/sh\necho hi\n")
	write(t, filepath.Join(dir, "tool.sh"), "#!/bin/sh\n")
	os.Chmod(filepath.Join(dir, "tool.sh"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "blob.bin"), []byte{0, 1, 2, 3, 0xff, 0, 'x'}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "kinds")
	write(t, filepath.Join(dir, "new.txt"), "untracked, uncommitted\n")
	return p
}

// changeScript makes, in the current directory, one of each change.
const changeScript = `set -e
printf 'a\nedited by the coder\n' > a.txt
mv rename-me.txt renamed.txt
rm -r gone
chmod +x script.sh
chmod -x tool.sh
printf '\000\001coder\377' > blob.bin
printf '\000new binary' > new.bin
rm link && ln -s b.txt link
mkdir -p deep/er && echo nested > deep/er/file.txt
echo ignored > trace.log
mkdir -p .sentinel && echo planted > .sentinel/x
`

// runInSandbox runs script in ws under the sandbox (an overlay workspace
// is only ever written there).
func runInSandbox(t *testing.T, ws *Workspace, script string) string {
	t.Helper()
	bin, _ := overlayHelper()
	prof := sandbox.DefaultProfile(ws.Dir, t.TempDir())
	prof.Overlay = ws.Overlay()
	prof.Net = sandbox.NetNone
	sb, err := sandbox.Prepare(prof, sandbox.Options{Mode: sandbox.ModeAuto, Helper: bin})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	cmd, err := sb.Command(context.Background(), ws.Dir, "/bin/sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sandboxed script: %v\n%s", err, out)
	}
	return string(out)
}

func newWorkspaces(t *testing.T, p *Project, snap Snapshot, kind string) *Workspace {
	t.Helper()
	ctx := context.Background()
	id := NewRunID(time.Now())
	shadow, err := shadowDir(p, id)
	if err != nil {
		t.Fatal(err)
	}
	var ws *Workspace
	if kind == WorkspaceOverlay {
		ws, err = CreateOverlayWorkspace(ctx, p, snap, p.WorkDir(id), shadow, "sentinel/"+id, id)
	} else {
		ws, err = CreateWorkspace(ctx, p, snap, p.WorkDir(id), shadow, "sentinel/"+id)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.discard(p, id) })
	return ws
}

// TestOverlayPatchMatchesClone makes the same changes (edits, deletions of
// files and a directory, a rename, mode changes both ways, binary files, a
// symlink retargeted, new nested files, an ignored file, a planted
// .sentinel file) in a clone and in an overlay workspace of the same
// snapshot and requires byte-identical changes.
func TestOverlayPatchMatchesClone(t *testing.T) {
	useOverlay(t)
	p := changeRepo(t)
	ctx := context.Background()
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clone := newWorkspaces(t, p, snap, WorkspaceClone)
	over := newWorkspaces(t, p, snap, WorkspaceOverlay)
	if over.Kind != WorkspaceOverlay || clone.Kind != WorkspaceClone {
		t.Fatalf("kinds %s %s", clone.Kind, over.Kind)
	}
	// What the coder sees first: the same tree and a clean status on its
	// own branch.
	status := "git status --porcelain --untracked-files=all; git rev-parse --abbrev-ref HEAD; git rev-parse HEAD\n"
	cloneOut := runInSandbox(t, clone, status)
	overOut := runInSandbox(t, over, status)
	if strings.ReplaceAll(cloneOut, filepath.Base(clone.Dir), "ID") != strings.ReplaceAll(overOut, filepath.Base(over.Dir), "ID") {
		t.Fatalf("the coder's first view differs:\nclone:\n%s\noverlay:\n%s", cloneOut, overOut)
	}
	runInSandbox(t, clone, changeScript)
	runInSandbox(t, over, changeScript)
	a, err := clone.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := over.Diff(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Patch, b.Patch) {
		t.Fatalf("patches differ:\nclone:\n%s\noverlay:\n%s", a.Patch, b.Patch)
	}
	if a.Tree != b.Tree || strings.Join(a.Files, ",") != strings.Join(b.Files, ",") || strings.Join(a.Left, ",") != strings.Join(b.Left, ",") {
		t.Fatalf("changes differ: %+v vs %+v", a, b)
	}
	for _, want := range []string{"deleted file mode 100644", "old mode 100644\nnew mode 100755", "old mode 100755\nnew mode 100644", "GIT binary patch", "renamed.txt", "deep/er/file.txt"} {
		if !bytes.Contains(b.Patch, []byte(want)) {
			t.Errorf("patch lacks %q:\n%s", want, b.Patch)
		}
	}
	if bytes.Contains(b.Patch, []byte("trace.log")) || bytes.Contains(b.Patch, []byte(".sentinel")) {
		t.Errorf("patch carries an ignored or forbidden path:\n%s", b.Patch)
	}
	// The coder's changes are in the upper dir only; the shared checkout
	// is as Sentinel made it.
	if out := gitT(t, over.Lower, "status", "--porcelain"); out != "" {
		t.Errorf("the shared checkout changed:\n%s", out)
	}
}

// TestOverlayWorkspaceSharesOneCheckout: a second run of the same snapshot
// reuses the shared checkout; the workspace holds only the run's own files.
func TestOverlayWorkspaceSharesOneCheckout(t *testing.T) {
	useOverlay(t)
	p := changeRepo(t)
	ctx := context.Background()
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first := newWorkspaces(t, p, snap, WorkspaceOverlay)
	second := newWorkspaces(t, p, snap, WorkspaceOverlay)
	if first.Lower != second.Lower {
		t.Fatalf("two checkouts of one snapshot: %s %s", first.Lower, second.Lower)
	}
	var names []string
	filepath.WalkDir(second.Dir, func(path string, d os.DirEntry, err error) error {
		if d != nil && !d.IsDir() {
			rel, _ := filepath.Rel(second.Dir, path)
			names = append(names, rel)
		}
		return nil
	})
	if len(names) != 2 {
		t.Errorf("a fresh overlay workspace holds %v, want only .git/HEAD and its branch", names)
	}
	list, err := ListCheckouts()
	if err != nil || len(list) != 1 || list[0].InUse != 2 {
		t.Fatalf("checkouts: %+v %v", list, err)
	}
}

// TestSharedCheckoutNotReusedWhenTampered: a checkout that fails
// verification (unsigned marker, another directory swapped in, writable by
// others) is made again, never used.
func TestSharedCheckoutNotReusedWhenTampered(t *testing.T) {
	useOverlay(t)
	p := changeRepo(t)
	ctx := context.Background()
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	lower, made, err := sharedCheckout(ctx, p, snap, NewRunID(time.Now()))
	if err != nil || !made {
		t.Fatalf("first checkout: made=%v %v", made, err)
	}
	entry := filepath.Dir(lower)
	tampers := map[string]func(){
		"forged marker": func() {
			b, _ := os.ReadFile(filepath.Join(entry, "marker"))
			os.WriteFile(filepath.Join(entry, "marker"), bytes.Replace(b, []byte(`"sig":"`), []byte(`"sig":"00`), 1), 0o600)
		},
		"swapped tree": func() {
			os.Chmod(lower, 0o700)
			os.Rename(lower, lower+".old")
			exec.Command("cp", "-a", lower+".old", lower).Run()
			write(t, filepath.Join(lower, "a.txt"), "poisoned\n")
			os.RemoveAll(lower + ".old")
		},
		"writable by others": func() { os.Chmod(lower, 0o777) },
	}
	for name, tamper := range tampers {
		t.Run(name, func(t *testing.T) {
			tamper()
			again, made, err := sharedCheckout(ctx, p, snap, NewRunID(time.Now()))
			if err != nil {
				t.Fatal(err)
			}
			if !made {
				t.Fatalf("a tampered checkout (%s) was reused", name)
			}
			if b, _ := os.ReadFile(filepath.Join(again, "a.txt")); string(b) == "poisoned\n" {
				t.Fatalf("poisoned content reused")
			}
			lower = again
		})
	}
}

// TestSweepCheckouts keeps what live runs use and the most recent, and
// removes the rest and the old.
func TestSweepCheckouts(t *testing.T) {
	useOverlay(t)
	p := changeRepo(t)
	ctx := context.Background()
	var entries []string
	for i := 0; i < 4; i++ {
		write(t, filepath.Join(p.Root, "a.txt"), strings.Repeat("x", i+1))
		snap, err := TakeSnapshot(ctx, p, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		id := NewRunID(time.Now())
		lower, _, err := sharedCheckout(ctx, p, snap, id)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			releaseCheckout(lower, id)
		}
		old := time.Now().Add(-time.Duration(4-i) * time.Hour)
		os.Chtimes(filepath.Join(filepath.Dir(lower), "marker"), old, old)
		entries = append(entries, filepath.Dir(lower))
	}
	// entries[0] is leased by this (live) process and the oldest.
	removed, err := SweepCheckouts(1, 48*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 {
		t.Fatalf("removed %v", removed)
	}
	for i, e := range entries {
		_, err := os.Stat(e)
		if gone := err != nil; gone != (i == 1 || i == 2) {
			t.Errorf("entry %d: gone=%v", i, gone)
		}
	}
	if removed, _ := ClearCheckouts(); len(removed) != 1 {
		t.Errorf("clear removed %v, want the unleased one", removed)
	}
}
