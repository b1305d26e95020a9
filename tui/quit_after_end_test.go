package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// quits: cmd (or a batch of them) asks the program to quit.
func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// Once the run's end is journaled the screen says "run landed … q to
// quit"; q then quits as the run returns, never asking to stop a run that
// has ended (on a busy machine the run's return can lag its last event).
func TestQuitAfterTheRunsEndNeverAsksToStopIt(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{
		ev(1, journal.System, runner.KindLanded, "landed on branch sentinel/r-1", runner.Landing{Mode: runner.ApplyBranch, Branch: "sentinel/r-1", Files: []string{"a.go"}}),
		ev(2, journal.System, runner.KindRunEnd, "run r-1: landed", runner.RunEnd{Status: runner.StatusLanded}),
	})
	h.press("q")
	if h.m.mode == modeQuit {
		t.Fatalf("q after the run's end asks to stop the run:\n%s", h.screen())
	}
	notContains(t, h.screen(), "Stop the run and quit?")
	if !quits(h.send(runDoneMsg{})) {
		t.Fatal("the run returned after q, and the TUI did not quit")
	}

	// Before the run's end, q still asks.
	h = newHarness(t, testInfo(), "dark", 120, 40)
	h.press("q")
	if h.m.mode != modeQuit {
		t.Fatal("q during the run did not ask to stop it")
	}
}
