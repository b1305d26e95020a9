package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// A running check shows a spinner line with its elapsed time and the last
// line it printed; the line goes when the check ends, and a failed check's
// output tail is in the tool lane (escapes removed, under the check's mark).
func TestLongWaitsShowASignOfLifeAndFailedChecksTheirOutput(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{ev(1, journal.Tool, runner.KindVerifyStart, "verify: go test ./...", runner.Check{Command: "go test ./...", Source: "detected"})})
	h.clk.Add(12 * time.Second)
	h.send(eventsMsg{ev(2, journal.System, runner.KindVerifyProgress, "still running (10s): === RUN TestShout",
		runner.CheckProgress{Command: "go test ./...", ElapsedMS: 10000, LastLine: "=== RUN \x1b[1mTestShout\x1b[0m"})})
	s := h.screen()
	if !strings.Contains(s, "verifying go test ./... · 12s · === RUN TestShout") {
		t.Fatalf("no spinner line with elapsed time and last line:\n%s", s)
	}
	if strings.Contains(s, "still running (10s)") {
		t.Errorf("a progress event is a lane line as well as the spinner:\n%s", s)
	}
	h.send(eventsMsg{ev(3, journal.Tool, runner.KindVerify, "verify: go test ./... → FAILED (exit 1) in 14s",
		runner.CheckResult{Check: runner.Check{Command: "go test ./..."}, ExitCode: 1, Tail: "--- FAIL: TestShout\n\x1b[31m    got hi, want HI\x1b[0m"})})
	s = h.screen()
	if strings.Contains(s, "verifying go test") {
		t.Errorf("the spinner line stays after the check ended:\n%s", s)
	}
	if !strings.Contains(s, "│ --- FAIL: TestShout") || !strings.Contains(s, "│     got hi, want HI") || strings.Contains(s, "[31m") {
		t.Errorf("the failed check's output tail is not in the tool lane:\n%s", s)
	}

	// A model wait: the completion review, until the supervisor lane moves.
	h.send(eventsMsg{ev(4, journal.Supervisor, runner.KindAwaitModel, "completion review: waiting for the supervisor model", nil)})
	h.clk.Add(3 * time.Second)
	if s = h.screen(); !strings.Contains(s, "completion review: waiting for the supervisor model · 3s") {
		t.Fatalf("no spinner line for the completion review:\n%s", s)
	}
	h.send(eventsMsg{ev(5, journal.Supervisor, runner.KindGate, "completion review accepted the work: ok", nil)})
	if s = h.screen(); strings.Contains(s, "· 3s") {
		t.Errorf("the review's spinner stays after its answer:\n%s", s)
	}
}

// TestAWaitBeforeAnyCheckSpins: the Go build cache seed is waited for
// before any check starts; its progress alone puts up the spinner line,
// counted from when the wait began, and the first check takes it over.
func TestAWaitBeforeAnyCheckSpins(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{ev(1, journal.System, runner.KindVerifyProgress, "preparing the Go build cache for verification: 2s",
		runner.CheckProgress{Command: "preparing the Go build cache for verification", ElapsedMS: 2000, LastLine: "once per Go version on this machine"})})
	h.clk.Add(time.Second)
	if s := h.screen(); !strings.Contains(s, "preparing the Go build cache for verification · 3s · once per Go version") {
		t.Fatalf("no spinner line for a wait before the checks:\n%s", s)
	}
	h.send(eventsMsg{ev(2, journal.Tool, runner.KindVerifyStart, "verify: go test ./...", runner.Check{Command: "go test ./..."})})
	if s := h.screen(); strings.Contains(s, "Go build cache") || !strings.Contains(s, "verifying go test ./...") {
		t.Fatalf("the first check does not take the spinner over:\n%s", s)
	}
}

// With the person's reduce-motion choice the wait line's mark holds still,
// and its elapsed seconds still count up every second (never silent); the
// coder pane's frame is ReducedMotionFrame unless one is given.
func TestReduceMotionStillsTheSpinnerButNotTheClock(t *testing.T) {
	s := NewReplay(testInfo(), nil)
	clk := &clock{now: t0.Add(90 * time.Second)}
	r, m := newLive(s, Options{Theme: "dark", Now: clk.Now, History: 1000, ReduceMotion: true}, func(b []byte) { _ = s.SendKeys(b) })
	t.Cleanup(m.close)
	h := &harness{t: t, r: r, m: m, s: s, clk: clk}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.send(eventsMsg{ev(1, journal.Tool, runner.KindVerifyStart, "verify: go test ./...", runner.Check{Command: "go test ./...", Source: "detected"})})
	var marks []string
	for i := 1; i <= 3; i++ {
		h.clk.Add(time.Second)
		sc := h.screen()
		want := fmt.Sprintf("%s verifying go test ./... · %ds", stillMark, i)
		if !strings.Contains(sc, want) {
			t.Fatalf("second %d: no %q:\n%s", i, want, sc)
		}
		for _, f := range spinner {
			if strings.Contains(sc, f) {
				marks = append(marks, f)
			}
		}
	}
	if len(marks) > 0 {
		t.Errorf("the spinner turned with reduce motion: %q", marks)
	}
	if f := (Options{ReduceMotion: true}).withDefaults().Frame; f != ReducedMotionFrame {
		t.Errorf("reduce motion's frame = %v, want %v", f, ReducedMotionFrame)
	}
	if f := (Options{}).withDefaults().Frame; f != DefaultFrame {
		t.Errorf("the default frame = %v, want %v", f, DefaultFrame)
	}
	if f := (Options{ReduceMotion: true, Frame: time.Millisecond}).withDefaults().Frame; f != time.Millisecond {
		t.Errorf("a given frame = %v, want 1ms", f)
	}
}
