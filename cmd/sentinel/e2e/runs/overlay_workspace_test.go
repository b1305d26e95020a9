package runs

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// overlayScript is a coder's work: edits, a deletion, a new file, a
// commit of its own, and attempts on the shared .git.
const overlayScript = `printf 'one\nedited\n' > main.txt
rm staged.txt
echo new > added.txt
echo evil > .git/hooks/post-checkout 2>/dev/null && echo HOOK-PLANTED
git -c user.name=c -c user.email=c@c commit -qam 'coder commit' >/dev/null 2>&1 || true
true`

// TestOverlayWorkspaceRunLandsLikeAClone drives the binary: a sandboxed
// run gets an overlay workspace (its first line says so) and lands; a
// second run of the same snapshot shares the checkout; a clone run
// (SENTINEL_WORKSPACE=clone) of the same work gives a byte-identical patch;
// neither the real project's .git nor the shared checkout changes.
func TestOverlayWorkspaceRunLandsLikeAClone(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("overlay workspaces are Linux-only")
	}
	dir := e2etest.ScratchRepo(t)
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state}
	if out := e2etest.Sentinel(t, dir, env, "doctor"); !strings.Contains(out.Stdout, "overlay over a shared read-only checkout") {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no overlay here (CI=true):\n%s", out.Stdout)
		}
		t.Skipf("no overlay here:\n%s", out.Stdout)
	}
	hooksBefore := e2etest.Git(t, dir, "rev-parse", "--git-path", "hooks")
	entriesBefore, _ := os.ReadDir(filepath.Join(dir, hooksBefore))
	patches := map[string]string{}
	for i, kind := range []string{"overlay", "overlay", "clone"} {
		runEnv := append(env, "SENTINEL_WORKSPACE="+kind)
		res := e2etest.Sentinel(t, dir, runEnv, "run", "--plain", "--coder", "command", "edit", "--", "sh", "-c", overlayScript)
		if res.Code != 0 {
			t.Fatalf("run %d (%s): exit %d: %s\n%s", i, kind, res.Code, res.Stderr, res.Stdout)
		}
		first, _, _ := strings.Cut(res.Stdout, "\n")
		want := "workspace: overlay over a shared read-only checkout"
		if kind == "clone" {
			want = "workspace: clone (no overlay: SENTINEL_WORKSPACE=clone)"
		}
		if !strings.Contains(first, want) {
			t.Fatalf("run %d: the first line does not say %q:\n%s", i, want, res.Stdout)
		}
		if strings.Contains(res.Stdout, "HOOK-PLANTED") {
			t.Fatalf("run %d (%s): the coder wrote .git/hooks:\n%s", i, kind, res.Stdout)
		}
		runs, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "patch.diff"))
		for _, r := range runs {
			if _, seen := patches[r]; !seen {
				b, _ := os.ReadFile(r)
				patches[r] = kind + "\x00" + string(b)
			}
		}
	}
	var overlayPatch, clonePatch string
	for _, v := range patches {
		kind, patch, _ := strings.Cut(v, "\x00")
		if kind == "clone" {
			clonePatch = patch
		} else {
			overlayPatch = patch
		}
	}
	if overlayPatch == "" || overlayPatch != clonePatch {
		t.Fatalf("patches differ:\noverlay:\n%s\nclone:\n%s", overlayPatch, clonePatch)
	}
	for _, want := range []string{"+edited", "deleted file mode", "added.txt"} {
		if !strings.Contains(overlayPatch, want) {
			t.Errorf("patch lacks %q:\n%s", want, overlayPatch)
		}
	}
	branches := strings.Fields(e2etest.Git(t, dir, "branch", "--list", "sentinel/*", "--format=%(refname:short)"))
	if len(branches) != 3 {
		t.Fatalf("landed branches: %v", branches)
	}
	for _, b := range branches {
		if got := e2etest.Git(t, dir, "show", b+":added.txt"); got != "new" {
			t.Errorf("%s: added.txt = %q", b, got)
		}
	}
	entriesAfter, _ := os.ReadDir(filepath.Join(dir, hooksBefore))
	if len(entriesAfter) != len(entriesBefore) {
		t.Errorf("the project's hooks changed: %d -> %d entries", len(entriesBefore), len(entriesAfter))
	}
	list := e2etest.Sentinel(t, dir, env, "checkouts")
	if strings.Count(list.Stdout, "last used") != 1 || !strings.Contains(list.Stdout, "unused") {
		t.Fatalf("two runs of one snapshot should share one checkout, unused once they ended:\n%s", list.Stdout)
	}
	lower, _ := filepath.Glob(filepath.Join(state, "sentinel", "checkouts", "*", "*", "tree"))
	if len(lower) != 1 {
		t.Fatalf("shared checkouts: %v", lower)
	}
	if st := e2etest.Git(t, lower[0], "status", "--porcelain"); st != "" {
		t.Errorf("the shared checkout changed:\n%s", st)
	}
	if clr := e2etest.Sentinel(t, dir, env, "checkouts", "clear"); clr.Code != 0 || !strings.Contains(clr.Stdout, "removed") {
		t.Fatalf("clear: %d %s %s", clr.Code, clr.Stdout, clr.Stderr)
	}
	if _, err := os.Stat(lower[0]); !os.IsNotExist(err) {
		t.Errorf("cleared checkout still there: %v", err)
	}
}
