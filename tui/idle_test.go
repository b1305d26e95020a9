package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// bellOf is what a command from the lanes page sends: the bell or not.
func bellOf(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	raw, ok := cmd().(tea.RawMsg)
	return ok && raw.Msg == "\a"
}

// TestCoderIdleSaysSoOnce: the agent's own end-of-turn signal (Claude's
// Stop hook, Codex's and ACP's turn end) puts "coder idle — D to review"
// on the status bar and D on the footer and rings the bell once; the
// coder's next action clears it, and the next turn's end rings again.
func TestCoderIdleSaysSoOnce(t *testing.T) {
	for _, end := range []journal.Event{
		ev(1, journal.Coder, coderstream.CoderStop, "Stop", nil),
		ev(1, journal.System, coderstream.TurnEnd, "codex turn completed", nil),
		ev(1, journal.Coder, coderstream.TurnEnd, "turn ended: end_turn", nil),
	} {
		t.Run(string(end.Lane)+"/"+string(end.Kind), func(t *testing.T) {
			h := newHarness(t, testInfo(), "dark", 120, 40)
			s := h.screen()
			notContains(t, s, idleMark)
			if !bellOf(h.m.update(eventsMsg{end})) {
				t.Fatal("the end of the coder's turn did not ring the bell")
			}
			s = h.screen()
			contains(t, s, idleMark)
			rows := strings.Split(s, "\n")
			contains(t, rows[len(rows)-1], "D coder is done")
			if bellOf(h.m.update(eventsMsg{end})) {
				t.Fatal("the bell rang twice for one idle turn")
			}
			h.m.update(eventsMsg{ev(2, journal.Tool, coderstream.Run, "ls", nil)})
			notContains(t, h.screen(), idleMark)
			if !bellOf(h.m.update(eventsMsg{end})) {
				t.Fatal("the next turn's end did not ring the bell")
			}
			h.send(runDoneMsg{})
			notContains(t, h.screen(), idleMark)
		})
	}
}

// TestCoderIdleNotAfterExit: a coder that has exited is not idle (a
// headless coder's Stop comes just before it exits).
func TestCoderIdleNotAfterExit(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.m.coderExited = true
	if bellOf(h.m.update(eventsMsg{ev(1, journal.Coder, coderstream.CoderStop, "Stop", nil)})) {
		t.Fatal("an exited coder's stop rang the bell")
	}
	notContains(t, h.screen(), idleMark)
}

// TestInPlaceFinishPromisesNoReview: sentinel exec has no verification,
// review or landing, so D, its question and its notice say only what
// happens: the coder ends and the report of its changes follows.
func TestInPlaceFinishPromisesNoReview(t *testing.T) {
	info := testInfo()
	info.InPlace = true
	h := newHarness(t, info, "dark", 160, 40)
	h.m.update(eventsMsg{ev(1, journal.Coder, coderstream.CoderStop, "Stop", nil)})
	s := h.screen()
	contains(t, s, "D coder is done → end it")
	h.press("D")
	s = h.screen()
	contains(t, s, "already in your files")
	if strings.Contains(s, "verify") || strings.Contains(s, "review") {
		t.Fatalf("exec's TUI promises a verification or review it does not do:\n%s", s)
	}
}
