package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// The TUI's end line tells the run with the state word its end event
// carries (runner.State), as sentinel runs and sentinel status do: a
// rejected run whose work was kept reads "rejected (recovery)" (#37.10).
func TestRunEndLineTellsTheRunsStateWord(t *testing.T) {
	res := runner.Result{Status: runner.StatusRejected, Recovery: "/src/p/.sentinel/recovery/r-1"}
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{
		ev(1, journal.System, runner.KindRunEnd, "run r-1: rejected", runner.RunEnd{Status: res.Status, State: res.StateOf()}),
	})
	if s := h.screen(); !strings.Contains(s, "run rejected (recovery)") {
		t.Errorf("the end line does not say the run's state word %q:\n%s", res.StateOf(), s)
	}
}
