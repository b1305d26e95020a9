package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// `sentinel review --approve` of a run that failed verification verifies it
// again on a clean copy and refuses when that fails; --force lands it, says
// plainly what was not checked, and the final report records it.
func TestApproveOfAFailedRunReverifiesOrNeedsForce(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	e2etest.WriteFile(t, scenario, writeScenario)
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", "grep -q approved feature.txt", "add a feature")
	if res.Code == 0 {
		t.Fatalf("a run failing its check succeeded: %s", res.Stderr)
	}
	id := e2etest.LastRun(t, dir)
	if m := e2etest.RunMeta(t, dir); m[0].Status != "failed" {
		t.Fatalf("run: %+v", m[0])
	}
	res = e2etest.Sentinel(t, dir, nil, "review", id, "--approve")
	if res.Code == 0 || !strings.Contains(res.Stderr, "verifying it on a clean copy now failed") || !strings.Contains(res.Stderr, "--force") {
		t.Fatalf("approving a failed run without re-verifying: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a change that fails its check landed: %s", b)
	}
	res = e2etest.Sentinel(t, dir, nil, "review", id, "--approve", "--force")
	if res.Code != 0 || !strings.Contains(res.Stdout, "landed WITHOUT verification (--force): run "+id+" failed verification") ||
		!strings.Contains(res.Stdout, "not run on a clean copy: grep -q approved feature.txt") {
		t.Fatalf("--force: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if got := e2etest.Git(t, dir, "show", "sentinel/"+id+":feature.txt"); got != "feature" {
		t.Fatalf("landed feature.txt = %q", got)
	}
	report, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "FINAL_REPORT.md"))
	if !strings.Contains(string(report), "landed WITHOUT verification (--force)") {
		t.Fatalf("FINAL_REPORT.md does not say the landing was forced:\n%s", report)
	}
}

// An interrupted run never passed verification: approving it runs the
// checks first (--verify, else the ones the run planned), refuses when they
// fail, and lands when they pass.
func TestApproveOfAnInterruptedRunVerifiesFirst(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	e2etest.WriteFile(t, scenario, writeScenario)
	// The planned check waits for a gate the test opens before the last
	// review: it holds the run in verification until the kill, then passes
	// at once. Verification runs in the sandbox, whose /tmp is its own; the
	// sandbox shows PATH's directories, so the gate's directory goes on PATH
	// (a gate the check cannot see fails the run, never waits it out).
	gate := t.TempDir()
	env := []string{"PATH=" + gate + string(filepath.ListSeparator) + os.Getenv("PATH")}
	ready := filepath.Join(gate, "ready")
	planned := "test -d " + gate + " || exit 7; until test -e " + ready + "; do sleep 0.1; done"
	e2etest.KillNineWhenEnv(t, e2etest.Bin, dir, env, `"kind":"verify-start"`, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", planned, "x")
	if m := e2etest.RunMeta(t, dir); m[0].Status != "interrupted" {
		t.Fatalf("after kill -9: %+v", m[0])
	}
	id := e2etest.LastRun(t, dir)
	res := e2etest.Sentinel(t, dir, env, "review", id, "--approve", "--verify", "grep -q approved feature.txt")
	if res.Code == 0 || !strings.Contains(res.Stderr, "interrupted before its change passed verification") || !strings.Contains(res.Stderr, "now failed") {
		t.Fatalf("approving with a failing check: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if b := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("an unverified change landed: %s", b)
	}
	// Without --verify, the run's own planned check verifies it.
	e2etest.WriteFile(t, ready, "")
	res = e2etest.Sentinel(t, dir, env, "review", id, "--approve")
	if res.Code != 0 || !strings.Contains(res.Stdout, "landed on branch sentinel/"+id) || strings.Contains(res.Stdout, "WITHOUT") {
		t.Fatalf("approving with the run's planned check: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl")); strings.Count(string(b), "verify: "+planned) < 2 {
		t.Fatal("review did not verify with the run's planned check")
	}
}
