package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestConsoleReviewsARunThatWaits: a run whose change waits for the
// person's review is one the console can review: R opens its review
// screen in the console's terminal, the person lands it there, and the
// console comes back saying so (#37 point 10).
func TestConsoleReviewsARunThatWaits(t *testing.T) {
	t.Parallel()
	svc := startUserService(t, "")
	dir := e2etest.ScratchRepo(t)
	res := e2etest.Sentinel(t, dir, svc.env, "run", "--plain", "--coder", "command", "--apply", "worktree", "--verify", "true",
		"edit a", "--", "sh", "-c", "echo coder > a.txt")
	if !strings.Contains(res.Stdout+res.Stderr, "awaiting-review") {
		t.Fatalf("the run did not wait for a review:\n%s\n%s", res.Stdout, res.Stderr)
	}
	tm := e2etest.StartSentinelSized(t, 160, 50, dir, svc.env, "console")
	tm.WaitArmed("the console offering the review", e2etest.Has("1 waiting for you", "R reviews"))
	tm.Keys("R")
	tm.WaitArmed("the run's review screen", e2etest.Has("a.txt", "[a] approve: land"))
	tm.PressUntil("a", "the landing question", e2etest.Has("Land 1 of 1 file(s)"))
	tm.Keys("y")
	// The review lands and ends; the console takes the terminal back, and
	// the service has heard the run's new state from the review.
	tm.WaitFor("the console again, nothing waiting", e2etest.Has("sentinel console", "0 waiting for you"))
	if runs := e2etest.Sentinel(t, dir, svc.env, "runs"); !strings.Contains(runs.Stdout, "landed") {
		t.Fatalf("the run did not land from the console's review:\n%s", runs.Stdout)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "coder\n" {
		t.Fatalf("the reviewed change is not in the working tree (--apply worktree): %q %v", b, err)
	}
	tm.Keys("q")
	tm.WaitFor("the console to quit", e2etest.Has("SENTINEL-EXITED 0"))
}
