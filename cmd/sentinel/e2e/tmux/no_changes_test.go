package tmux

import (
	"strings"
	"testing"
)

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
