package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// After landing the TUI says where the work is and how to leave; a run that
// changed nothing ends as "no changes", not "landed".
func TestRunEndSaysWhereTheWorkLandedOrThatNothingChanged(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{
		ev(1, journal.System, runner.KindLanded, "landed on branch sentinel/r-20261129-ab12", runner.Landing{Mode: runner.ApplyBranch, Branch: "sentinel/r-20261129-ab12", Files: []string{"a.go"}}),
		ev(2, journal.System, runner.KindRunEnd, "run r-20261129-ab12: landed", runner.RunEnd{Status: runner.StatusLanded}),
	})
	if s := h.screen(); !strings.Contains(s, "landed on sentinel/r-20261129-ab12 — q to quit") || !strings.Contains(s, "run landed") {
		t.Errorf("after landing the screen does not say where and how to leave:\n%s", s)
	}

	h = newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg{
		ev(1, journal.System, runner.KindLanded, "nothing to land: the coder changed no files", runner.Landing{Mode: runner.ApplyBranch, Nothing: true}),
		ev(2, journal.System, runner.KindRunEnd, "run r-20261129-ab12: no changes", runner.RunEnd{Status: runner.StatusLanded}),
	})
	if s := h.screen(); !strings.Contains(s, "run no changes") || strings.Contains(s, "run landed") {
		t.Errorf("a run that changed nothing does not end as no changes:\n%s", s)
	}
}
