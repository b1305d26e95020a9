package tmux

import (
	"strings"
	"testing"
)

// A run whose coder changed nothing ends as "no changes", not "landed" (it
// still succeeds: exit 0), in --plain and in sentinel runs; --json keeps
// the status.
func TestRunThatChangedNothingEndsAsNoChanges(t *testing.T) {
	dir := scratchRepo(t)
	res := sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "look around", "--", "true")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	id := runMeta(t, dir)[0].ID
	if !strings.Contains(res.stdout, "[SYSTEM] run "+id+": no changes") || strings.Contains(res.stdout, ": landed") {
		t.Errorf("the run's end does not say no changes:\n%s", res.stdout)
	}
	runs := sentinel(t, dir, nil, "runs")
	if f := strings.Split(strings.Split(strings.TrimSpace(runs.stdout), "\n")[1], "\t"); len(f) < 2 || !strings.HasPrefix(f[1], "no changes") {
		t.Errorf("sentinel runs does not say no changes:\n%s", runs.stdout)
	}
	if m := runMeta(t, dir)[0]; m.Status != "landed" {
		t.Errorf("runs --json status %q, want it unchanged (landed)", m.Status)
	}
}

// When the person quits the TUI after a run failed, its end is printed once
// (the exit line says what failed and where the work is kept).
func TestFailedRunsEndIsPrintedOnceAfterTheTUI(t *testing.T) {
	dir := scratchRepo(t)
	tm := startTmuxSized(t, 120, 30, dir, nil, "run", "--coder", "command", "--verify", "false", "write a", "--", "sh", "-c", "echo hi > a.txt")
	tm.waitFor("the run's end", has("run ", ": failed"))
	tm.keys("q")
	s := tm.waitFor("the quit question or the exit", func(s string) bool {
		return strings.Contains(s, "Stop the run and quit?") || strings.Contains(s, "SENTINEL-EXITED")
	})
	if !strings.Contains(s, "SENTINEL-EXITED") {
		tm.keys("y")
		s = tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))
	}
	if !strings.Contains(s, "SENTINEL-EXITED 1") || strings.Count(s, "work kept in") != 1 || !strings.Contains(s, "verification failed: false exited 1") {
		t.Errorf("want exit 1 and the end printed once, saying what failed:\n%s", s)
	}
}
