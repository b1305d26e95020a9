package runs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestReviewApproveLandsWhereTheRunWasToLand: a run started with --apply
// worktree that waits for review lands in the working tree on `review ID
// --approve` with no --apply, not on a branch; and the run's end named
// its FINAL_REPORT.md.
func TestReviewApproveLandsWhereTheRunWasToLand(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "w.toml")
	e2etest.WriteFile(t, scenario, writeScenario)
	res := e2etest.Sentinel(t, dir, nil, "run", "--coder", "demo", "--plain", "--scenario", scenario, "--apply", "worktree", "add a feature")
	if res.Code != 1 {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	m := e2etest.RunMeta(t, dir)
	report := filepath.Join(dir, ".sentinel", "runs", m[0].ID, "FINAL_REPORT.md")
	if !strings.Contains(res.Stderr, report) {
		t.Fatalf("the run's end does not say where FINAL_REPORT.md is (%s):\n%s", report, res.Stderr)
	}
	res = e2etest.Sentinel(t, dir, nil, "review", m[0].ID, "--approve")
	if res.Code != 0 {
		t.Fatalf("review --approve: %d %s %s", res.Code, res.Stdout, res.Stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "feature.txt")); err != nil || strings.TrimSpace(string(b)) != "feature" {
		t.Fatalf("the change did not land in the working tree (the run's --apply worktree): %q %v\n%s", b, err, res.Stdout)
	}
}
