package tui

import (
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestCountsComeFromTheDecisionNotItsText: the status bar's allowed and
// denied counts are the decisions' outcomes; a decision's text, or a coder's
// report whose text reads like one, counts for nothing.
func TestCountsComeFromTheDecisionNotItsText(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 200, 40)
	h.send(eventsMsg([]journal.Event{
		ev(1, journal.Approval, "decision", "denied: make (person)", approvals.Decision{RequestID: "a", Outcome: approvals.OutcomeAllow}),
		ev(2, journal.Approval, "decision", "allowed: ls (person)", approvals.Decision{RequestID: "b", Outcome: approvals.OutcomeDeny}),
		ev(3, journal.Approval, "decision", "allowed: pwd (person)", approvals.Decision{RequestID: "c", Outcome: approvals.OutcomeDeny}),
		ev(4, journal.Tool, "tool-result", "denied: rm (person)", approvals.ReportEvent{ReportedBy: approvals.ReportedByCoder}),
	}))
	contains(t, h.screen(), "✓1")
	contains(t, h.screen(), "✗2")
}
