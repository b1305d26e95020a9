package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConsoleReviewsARunThatWaits: a run whose change waits for the
// person's review is one the console can review: R opens its review
// screen in the console's terminal, the person lands it there, and the
// console comes back saying so (#37 point 10).
func TestConsoleReviewsARunThatWaits(t *testing.T) {
	svc := startUserService(t, "")
	dir := scratchRepo(t)
	res := sentinel(t, dir, svc.env, "run", "--plain", "--coder", "command", "--apply", "worktree", "--verify", "true",
		"edit a", "--", "sh", "-c", "echo coder > a.txt")
	if !strings.Contains(res.stdout+res.stderr, "awaiting-review") {
		t.Fatalf("the run did not wait for a review:\n%s\n%s", res.stdout, res.stderr)
	}
	tm := startTmuxSized(t, 160, 50, dir, svc.env, "console")
	tm.waitArmed("the console offering the review", has("1 waiting for you", "R reviews"))
	tm.keys("R")
	tm.waitArmed("the run's review screen", has("a.txt", "[a] approve: land"))
	tm.pressUntil("a", "the landing question", has("Land 1 of 1 file(s)"))
	tm.keys("y")
	// The review lands and ends; the console takes the terminal back, and
	// the service has heard the run's new state from the review.
	tm.waitFor("the console again, nothing waiting", has("sentinel console", "0 waiting for you"))
	if runs := sentinel(t, dir, svc.env, "runs"); !strings.Contains(runs.stdout, "landed") {
		t.Fatalf("the run did not land from the console's review:\n%s", runs.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(b) != "coder\n" {
		t.Fatalf("the reviewed change is not in the working tree (--apply worktree): %q %v", b, err)
	}
	tm.keys("q")
	tm.waitFor("the console to quit", has("SENTINEL-EXITED 0"))
}
