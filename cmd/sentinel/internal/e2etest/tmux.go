package e2etest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// Tmux is a binary running in a detached tmux window, driven like a
// person.
type Tmux struct {
	T    *testing.T
	Sock string
	// out is a file the pane's output is appended to (tmux pipe-pane):
	// WaitFor captures the screen again only once it has grown.
	out string
}

// StartTmux starts bin with args in dir in a 200×60 tmux window, with env
// added; when it exits the pane shows SENTINEL-EXITED <status>.
func StartTmux(t *testing.T, bin, dir string, env []string, args ...string) *Tmux {
	t.Helper()
	return StartTmuxSized(t, bin, 200, 60, dir, env, args...)
}

// StartTmuxSized is StartTmux in a window cols by rows.
func StartTmuxSized(t *testing.T, bin string, cols, rows int, dir string, env []string, args ...string) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the TUI end-to-end tests")
		}
		t.Skip("tmux is not installed: skipping the interactive end-to-end test")
	}
	// A short socket path: unix socket paths are limited to ~100 bytes.
	sockDir, err := os.MkdirTemp("", "tm")
	if err != nil {
		t.Fatal(err)
	}
	tm := &Tmux{T: t, Sock: filepath.Join(sockDir, "s")}
	var line strings.Builder
	line.WriteString("cd " + Shq(dir) + " && env")
	for _, e := range env {
		line.WriteString(" " + Shq(e))
	}
	line.WriteString(" " + Shq(bin))
	for _, a := range args {
		line.WriteString(" " + Shq(a))
	}
	line.WriteString("; echo SENTINEL-EXITED $?; sleep 600")
	tm.Cmd("new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-s", "e2e", line.String())
	tm.out = filepath.Join(sockDir, "out")
	tm.Cmd("pipe-pane", "-t", "e2e", "cat >> "+Shq(tm.out))
	t.Cleanup(func() {
		// Ending tmux hangs up on sentinel, which then keeps the run's work
		// for recovery; wait for that, so the test's temp dirs are removed
		// after it and not while it writes.
		kids := ChildPIDs(strings.TrimSpace(tm.Cmd("display", "-p", "-t", "e2e", "#{pane_pid}")))
		tm.Cmd("kill-server")
		WaitGone(kids, time.Minute)
		os.RemoveAll(sockDir)
	})
	return tm
}

// Cmd runs a tmux command against the session's server.
func (tm *Tmux) Cmd(args ...string) string {
	out, _ := exec.Command("tmux", append([]string{"-S", tm.Sock}, args...)...).CombinedOutput()
	return string(out)
}

// Keys sends tmux key names (a, Enter, C-]) to the window.
func (tm *Tmux) Keys(keys ...string) {
	tm.Cmd(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

// TypeText sends s literally.
func (tm *Tmux) TypeText(s string) { tm.Cmd("send-keys", "-t", "e2e", "-l", s) }

// Screen is the window's text.
func (tm *Tmux) Screen() string { return tm.Cmd("capture-pane", "-p", "-t", "e2e") }

// WaitFor polls the screen until cond holds; the bound (HangBound) is for
// a hung run, not a speed check.
func (tm *Tmux) WaitFor(what string, cond func(string) bool) string {
	tm.T.Helper()
	deadline := time.Now().Add(HangBound)
	for {
		seen := tm.outSize()
		s := tm.Screen()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.T.Fatalf("never saw %s; screen:\n%s", what, s)
			return s
		}
		tm.waitOutput(seen)
	}
}

// outSize is the size of the pane's output so far (-1 when unknown).
func (tm *Tmux) outSize() int64 {
	fi, err := os.Stat(tm.out)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// waitOutput waits until the pane has written past size seen, looking
// every 100 ms (as the screen was always polled, never sooner), and in any
// case no longer than a second. Every screen capture is a tmux client process, milliseconds of
// CPU each; polling the screen ten times a second through a whole test
// while nothing moved was a good part of a tmux test's CPU, while a stat
// costs next to nothing. All a screen shows comes through the pane's
// output, so an unchanged size is an unchanged screen; the second's bound
// keeps a pipe that never started from slowing a wait for good.
func (tm *Tmux) waitOutput(seen int64) {
	looked := false
	poll.Paced(Pace, time.Second, func() bool {
		if !looked { // one pace at least between two screens
			looked = true
			return false
		}
		return seen < 0 || tm.outSize() != seen
	})
}

// WaitRequests waits until the model has had n main-loop requests.
func (tm *Tmux) WaitRequests(model *fakemodel.Server, n int) {
	tm.T.Helper()
	deadline := time.After(HangBound)
	for len(model.Requests()) < n {
		select {
		case <-model.Changed():
		case <-deadline:
			tm.T.Fatalf("the model got %d requests, want %d; screen:\n%s", len(model.Requests()), n, tm.Screen())
		}
	}
}

// PressUntil sends key until cond shows on the screen: a busy machine can
// still be inside a new screen's key guard when the first press arrives.
func (tm *Tmux) PressUntil(key, what string, cond func(string) bool) {
	tm.T.Helper()
	for i := 0; i < 5; i++ {
		tm.Keys(key)
		// Three seconds before the next press: not a bound, the last
		// press's wait is WaitFor's.
		if poll.Paced(Pace, 3*time.Second, func() bool { return cond(tm.Screen()) }) {
			return
		}
	}
	tm.WaitFor(what, cond)
}

// GuardNotice is what a new card or review screen shows, instead of its
// keys, while it ignores keys (tui.DefaultGuard).
const GuardNotice = "keys are ignored for a moment"

// WaitArmed waits until cond shows and the screen's key guard has passed:
// the keys line is drawn only once keys are taken, so a key sent after
// this answers the screen instead of being dropped.
func (tm *Tmux) WaitArmed(what string, cond func(string) bool) string {
	tm.T.Helper()
	return tm.WaitFor(what+", its keys taken", func(s string) bool { return cond(s) && !strings.Contains(s, GuardNotice) })
}

// LandFromReview answers the review screen as a person who approves it:
// a, then y at "Land n of n file(s)?", then q once the run has landed; the
// binary must exit 0.
func (tm *Tmux) LandFromReview(files int) {
	tm.T.Helper()
	tm.WaitArmed("the review screen", Has("[a] approve: land"))
	tm.PressUntil("a", "the landing question", Has(fmt.Sprintf("Land %d of %d file(s)", files, files)))
	tm.Keys("y")
	tm.WaitFor("the run's end", Has("run landed"))
	tm.Keys("q")
	if s := tm.WaitFor("sentinel to exit", Has("SENTINEL-EXITED")); !strings.Contains(s, "SENTINEL-EXITED 0") {
		tm.T.Errorf("sentinel exited with an error:\n%s", s)
	}
}

// Has is a screen condition: every part is on it.
func Has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// Shq quotes s for a POSIX shell.
func Shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ChildPIDs are the children of pid (via pgrep), for waiting on them.
func ChildPIDs(pid string) []int {
	if pid == "" {
		return nil
	}
	out, _ := exec.Command("pgrep", "-P", pid).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// WaitGone waits (up to bound) until none of pids is alive.
func WaitGone(pids []int, bound time.Duration) {
	poll.Until(bound, func() bool {
		for _, pid := range pids {
			if procgroup.Alive(pid) {
				return false
			}
		}
		return true
	})
}
