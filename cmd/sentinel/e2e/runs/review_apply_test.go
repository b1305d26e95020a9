package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewApproveLandsWhereTheRunWasToLand: a run started with --apply
// worktree that waits for review lands in the working tree on `review ID
// --approve` with no --apply, not on a branch; and the run's end named
// its FINAL_REPORT.md.
func TestReviewApproveLandsWhereTheRunWasToLand(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	writeFile(t, scenario, writeScenario)
	res := sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--apply", "worktree", "add a feature")
	if res.code != 1 {
		t.Fatalf("exit %d: %s", res.code, res.stderr)
	}
	m := runMeta(t, dir)
	report := filepath.Join(dir, ".sentinel", "runs", m[0].ID, "FINAL_REPORT.md")
	if !strings.Contains(res.stderr, report) {
		t.Fatalf("the run's end does not say where FINAL_REPORT.md is (%s):\n%s", report, res.stderr)
	}
	res = sentinel(t, dir, nil, "review", m[0].ID, "--approve")
	if res.code != 0 {
		t.Fatalf("review --approve: %d %s %s", res.code, res.stdout, res.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "feature.txt")); err != nil || strings.TrimSpace(string(b)) != "feature" {
		t.Fatalf("the change did not land in the working tree (the run's --apply worktree): %q %v\n%s", b, err, res.stdout)
	}
}
