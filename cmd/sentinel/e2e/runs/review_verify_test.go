package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `sentinel review --approve` of a run that failed verification verifies it
// again on a clean copy and refuses when that fails; --force lands it, says
// plainly what was not checked, and the final report records it.
func TestApproveOfAFailedRunReverifiesOrNeedsForce(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	writeFile(t, scenario, writeScenario)
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", "grep -q approved feature.txt", "add a feature")
	if res.code == 0 {
		t.Fatalf("a run failing its check succeeded: %s", res.stderr)
	}
	id := lastRun(t, dir)
	if m := runMeta(t, dir); m[0].Status != "failed" {
		t.Fatalf("run: %+v", m[0])
	}
	res = sentinel(t, dir, nil, "review", id, "--approve")
	if res.code == 0 || !strings.Contains(res.stderr, "verifying it on a clean copy now failed") || !strings.Contains(res.stderr, "--force") {
		t.Fatalf("approving a failed run without re-verifying: %d %s %s", res.code, res.stdout, res.stderr)
	}
	if b := git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("a change that fails its check landed: %s", b)
	}
	res = sentinel(t, dir, nil, "review", id, "--approve", "--force")
	if res.code != 0 || !strings.Contains(res.stdout, "landed WITHOUT verification (--force): run "+id+" failed verification") ||
		!strings.Contains(res.stdout, "not run on a clean copy: grep -q approved feature.txt") {
		t.Fatalf("--force: %d %s %s", res.code, res.stdout, res.stderr)
	}
	if got := git(t, dir, "show", "sentinel/"+id+":feature.txt"); got != "feature" {
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
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	writeFile(t, scenario, writeScenario)
	ready := filepath.Join(t.TempDir(), "ready")
	planned := "test -e " + ready + " || sleep 120"
	killNineWhen(t, dir, `"kind":"verify-start"`, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--verify", planned, "x")
	if m := runMeta(t, dir); m[0].Status != "interrupted" {
		t.Fatalf("after kill -9: %+v", m[0])
	}
	id := lastRun(t, dir)
	res := sentinel(t, dir, nil, "review", id, "--approve", "--verify", "grep -q approved feature.txt")
	if res.code == 0 || !strings.Contains(res.stderr, "interrupted before its change passed verification") || !strings.Contains(res.stderr, "now failed") {
		t.Fatalf("approving with a failing check: %d %s %s", res.code, res.stdout, res.stderr)
	}
	if b := git(t, dir, "branch", "--list", "sentinel/*"); b != "" {
		t.Fatalf("an unverified change landed: %s", b)
	}
	// Without --verify, the run's own planned check verifies it.
	writeFile(t, ready, "")
	res = sentinel(t, dir, nil, "review", id, "--approve")
	if res.code != 0 || !strings.Contains(res.stdout, "landed on branch sentinel/"+id) || strings.Contains(res.stdout, "WITHOUT") {
		t.Fatalf("approving with the run's planned check: %d %s %s", res.code, res.stdout, res.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "events.jsonl")); strings.Count(string(b), "verify: "+planned) < 2 {
		t.Fatal("review did not verify with the run's planned check")
	}
}
