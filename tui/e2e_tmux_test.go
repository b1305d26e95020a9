package tui_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

// TestDemoInTmux drives the real binary: `sentinel demo` in a 120×40 tmux
// window, answering each approval card with a after its key guard, until the
// run ends, then q. It checks what a person sees: the lanes, the card, the
// run's end in the status bar, and a clean exit. SENTINEL_E2E_BIN names a
// prebuilt binary instead of building one. Plain lines instead of the TUI in
// a terminal are a failure.
func TestDemoInTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped with -short")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the TUI end-to-end test")
		}
		t.Skip("tmux not installed: skipping the TUI end-to-end test")
	}
	dir := t.TempDir()
	bin := os.Getenv("SENTINEL_E2E_BIN") // a prebuilt binary, else the shared build
	if bin == "" {
		// The binary every end-to-end package of this `go test` shares
		// (alone in its directory, as a build of its own here was): a link
		// of its own cost a few CPU-seconds a run.
		var err error
		if bin, err = testbin.Sentinel(); err != nil {
			t.Fatalf("build sentinel: %v", err)
		}
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		out, _ := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		return string(out)
	}
	project := filepath.Join(dir, "project")
	cmdline := "env XDG_CONFIG_HOME=" + filepath.Join(dir, "config") + " " + bin + " demo " + project + "; echo SENTINEL-EXITED $?; sleep 30"
	tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", "e2e", cmdline)
	defer tmux("kill-server")
	screen := func() string { return tmux("capture-pane", "-p", "-t", "e2e") }
	waitFor := func(what string, cond func(string) bool) string {
		t.Helper()
		var s string
		// A bound on a hung run, not a speed check: verification builds and
		// tests the demo project on a clean copy, which on a loaded machine
		// with a cold build cache takes minutes.
		if !poll.Paced(100*time.Millisecond, 5*time.Minute, func() bool { s = screen(); return cond(s) }) {
			t.Fatalf("never saw %s; screen:\n%s", what, s)
		}
		return s
	}
	s := waitFor("the TUI or plain output", func(s string) bool {
		return strings.Contains(s, "▸ CODER") || strings.Contains(s, "[SYSTEM]")
	})
	if !strings.Contains(s, "▸ CODER") {
		t.Fatalf("sentinel demo printed plain output, not the TUI, in a terminal:\n%s", s)
	}
	for _, want := range []string{"CODER", "TOOL", "APPROVAL", "SUPERVISOR"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the lanes are not all shown; missing %s:\n%s", want, s)
		}
	}
	cards, reviewed := 0, false
	for i := 0; i < 60; i++ {
		s = waitFor("a card, the review or the run's end", func(s string) bool {
			return strings.Contains(s, "[a] approve once") || strings.Contains(s, "[a] approve: land") ||
				strings.Contains(s, "│ run ") || strings.Contains(s, "SENTINEL-EXITED")
		})
		switch {
		case strings.Contains(s, "[a] approve once"):
			// The card's keys are drawn once it takes keys. The screen
			// moves on when a is taken (a press that lands while only
			// another lane moved answers the next card, as the demo means).
			cards++
			before := s
			tmux("send-keys", "-t", "e2e", "a")
			waitFor("the screen to move on from the card", func(s string) bool { return s != before })
		case strings.Contains(s, "[a] approve: land"):
			// The review screen: approve, then confirm at its question.
			reviewed = true
			tmux("send-keys", "-t", "e2e", "a")
			waitFor("the landing question", func(s string) bool { return strings.Contains(s, "hunk(s)?") })
			tmux("send-keys", "-t", "e2e", "y")
			waitFor("the review to close", func(s string) bool { return !strings.Contains(s, "hunk(s)?") })
		default:
			i = 60
			continue
		}
	}
	if !reviewed {
		t.Fatalf("the demo run never showed the review screen:\n%s", s)
	}
	if cards == 0 {
		t.Fatalf("the demo run never asked for an approval:\n%s", s)
	}
	waitFor("the run's end in the status bar", func(s string) bool { return strings.Contains(s, "│ run ") })
	tmux("send-keys", "-t", "e2e", "q")
	s = waitFor("sentinel to exit", func(s string) bool { return strings.Contains(s, "SENTINEL-EXITED") })
	if !strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Fatalf("sentinel exited with an error:\n%s", s)
	}
}
