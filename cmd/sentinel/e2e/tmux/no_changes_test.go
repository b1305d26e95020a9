package tmux

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// When the person quits the TUI after a run failed, its end is printed once
// (the exit line says what failed and where the work is kept).
func TestFailedRunsEndIsPrintedOnceAfterTheTUI(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	tm := e2etest.StartSentinelSized(t, 120, 30, dir, nil, "run", "--coder", "command", "--verify", "false", "write a", "--", "sh", "-c", "echo hi > a.txt")
	tm.WaitFor("the run's end", e2etest.Has("run ", ": failed"))
	tm.Keys("q")
	s := tm.WaitFor("the quit question or the exit", func(s string) bool {
		return strings.Contains(s, "Stop the run and quit?") || strings.Contains(s, "SENTINEL-EXITED")
	})
	if !strings.Contains(s, "SENTINEL-EXITED") {
		tm.Keys("y")
		s = tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
	}
	if !strings.Contains(s, "SENTINEL-EXITED 1") || strings.Count(s, "work kept in") != 1 || !strings.Contains(s, "verification failed: false exited 1") {
		t.Errorf("want exit 1 and the end printed once, saying what failed:\n%s", s)
	}
}
