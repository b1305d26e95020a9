package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// An interactive coder that has finished its turn waits for the person
// without a word. The agent's own signal says so — Claude Code's Stop hook
// (a coder-stop report), Codex's turn end, ACP's stop reason (turn-end) —
// and the view then says "coder idle — D to review", shows D on the footer
// and rings the terminal bell once. It is only a hint: the signal comes
// from the coder, and D still asks before it ends the coder.

// idleMark is the status bar's notice.
const idleMark = "coder idle — D to review"

// idleMarkInPlace is the notice under sentinel exec, which has no review.
const idleMarkInPlace = "coder idle — D to end it"

// trackIdle follows the coder's turns from its events.
func (m *model) trackIdle(ev journal.Event) {
	switch ev.Kind {
	case coderstream.CoderStop, coderstream.TurnEnd:
		if !m.coderIdle {
			m.coderIdle, m.bell = true, !m.runDone && !m.coderExited
		}
	case coderstream.TurnStart, coderstream.Text, coderstream.Thinking, coderstream.UserText,
		coderstream.ToolCall, coderstream.StreamCall, coderstream.Run, coderstream.Write, coderstream.Edit, runner.KindSteer:
		m.coderIdle = false
	default:
		if ev.Lane == journal.Tool {
			m.coderIdle = false
		}
	}
}

// idle is true while the coder waits after its turn in a run that goes on.
func (m *model) idle() bool { return m.coderIdle && !m.runDone && !m.coderExited && !m.stopping }

// ringBell is the bell, once per idle turn, when one is due.
func (m *model) ringBell() tea.Cmd {
	if !m.bell {
		return nil
	}
	m.bell = false
	if !m.idle() {
		return nil
	}
	return tea.Raw("\a")
}
