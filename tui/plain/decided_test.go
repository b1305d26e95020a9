package plain

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestDeniedIsTakenFromTheDecisionNotItsText: the [DENIED] tag comes from
// the decision's outcome; text that reads "denied" (on a decision, or in a
// report the coder sent) decides nothing.
func TestDeniedIsTakenFromTheDecisionNotItsText(t *testing.T) {
	ev := func(lane journal.Lane, kind journal.Kind, text string, data any) journal.Event {
		b, _ := json.Marshal(data)
		return journal.Event{Lane: lane, Kind: kind, Text: text, Data: b}
	}
	for _, c := range []struct {
		ev   journal.Event
		want string
	}{
		{ev(journal.Approval, "decision", "allowed: make (person)", approvals.Decision{Outcome: approvals.OutcomeDeny}), "[DENIED]"},
		{ev(journal.Approval, "decision", "denied: make (person)", approvals.Decision{Outcome: approvals.OutcomeAllow}), "[APPROVAL]"},
		{ev(journal.Tool, "tool-result", "denied: make", approvals.ReportEvent{ReportedBy: approvals.ReportedByCoder}), "[TOOL]"},
	} {
		if got := Tag(c.ev); got != c.want {
			t.Errorf("Tag(%s/%s %q %s) = %s, want %s", c.ev.Lane, c.ev.Kind, c.ev.Text, c.ev.Data, got, c.want)
		}
		var out bytes.Buffer
		p := NewPrinter(&out, nil)
		p.Print(c.ev)
		if !strings.HasPrefix(out.String(), c.want+" ") {
			t.Errorf("printed %q, want it tagged %s", out.String(), c.want)
		}
	}
}
