package runner

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// The agent's failure is the report's Reason, a value: never its display
// text, and only a report the coder sent on its own lane.
func TestLastStopFailure(t *testing.T) {
	t.Parallel()
	report := func(lane journal.Lane, kind journal.Kind, text, reason string) journal.Event {
		data, _ := json.Marshal(approvals.ReportEvent{Report: approvals.Report{Lane: string(lane), Kind: kind, Text: text, Reason: reason}, ReportedBy: approvals.ReportedByCoder})
		return journal.Event{Lane: lane, Kind: kind, Text: text, Data: data}
	}
	ev := func(lane journal.Lane, kind journal.Kind, text string) journal.Event {
		return report(lane, kind, text, "")
	}
	fail := report(journal.Coder, coderstream.CoderStopFailure, "StopFailure: shown text", "unknown: API Error: 400")
	stop := ev(journal.Coder, coderstream.CoderStop, "Stop")
	cases := []struct {
		name string
		evs  []journal.Event
		want string
	}{
		{"no stop at all", nil, ""},
		{"the last turn failed", []journal.Event{stop, fail}, "unknown: API Error: 400"},
		{"a later turn went well", []journal.Event{fail, stop}, ""},
		{"only on the coder's lane", []journal.Event{report(journal.System, coderstream.CoderStopFailure, "x", "x")}, ""},
		{"not a report", []journal.Event{{Lane: journal.Coder, Kind: coderstream.CoderStopFailure, Text: "StopFailure: x"}}, ""},
	}
	for _, c := range cases {
		if got := lastStopFailure(c.evs); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
