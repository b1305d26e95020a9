//go:build unix

package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A signal while sentinel review's screen is open ends it at once with
// nothing decided and exit 130 (a quit key says "no decision", exit 0):
// the run stays awaiting review and the working tree is untouched.
func TestSignalOnTheReviewScreenEndsItWith130(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := scratchRepo(t)
			env := []string{"XDG_STATE_HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir()}
			res := sentinel(t, dir, env, "run", "--plain", "--coder", "command", "--apply", "worktree", "--verify", "true", "edit a", "--", "sh", "-c", "echo coder > a.txt")
			if !strings.Contains(res.stdout+res.stderr, "awaiting-review") {
				t.Fatalf("the run did not wait for a review:\n%s\n%s", res.stdout, res.stderr)
			}
			before, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
			tm := startTmux(t, dir, env, "review", "last")
			tm.waitFor("the review screen", has("a.txt"))
			kids := childPIDs(strings.TrimSpace(tm.tmux("display", "-p", "-t", "e2e", "#{pane_pid}")))
			if len(kids) != 1 {
				t.Fatalf("the pane runs %v; want sentinel alone", kids)
			}
			if err := syscall.Kill(kids[0], sig); err != nil {
				t.Fatal(err)
			}
			s := tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))
			if !strings.Contains(s, "SENTINEL-EXITED 130") || !strings.Contains(s, "stopped: nothing decided") {
				t.Fatalf("want exit 130 saying nothing was decided:\n%s", s)
			}
			if after, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(after) != string(before) {
				t.Fatalf("a.txt changed: %q → %q", before, after)
			}
			runs := sentinel(t, dir, env, "runs")
			if !strings.Contains(runs.stdout, "awaiting-review") {
				t.Fatalf("the run is no longer awaiting review:\n%s", runs.stdout)
			}
		})
	}
}
