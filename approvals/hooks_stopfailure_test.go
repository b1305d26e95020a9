package approvals

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
)

// Claude Code's StopFailure (a turn ended on an API error) is a report of
// its own kind, carrying the agent's error, that the broker accepts.
func TestParseHookStopFailure(t *testing.T) {
	ev, err := ParseHook(HookClaude, []byte(`{"hook_event_name":"StopFailure","error":"rate_limit",
		"last_assistant_message":"API Error: 429 slow down\nsecond line"}`))
	if err != nil {
		t.Fatal(err)
	}
	r := ev.Report
	if r == nil || r.Lane != "coder" || r.Kind != coderstream.CoderStopFailure {
		t.Fatalf("report = %+v, want a coder-lane %s", r, coderstream.CoderStopFailure)
	}
	if r.Text != "StopFailure: rate_limit: API Error: 429 slow down" {
		t.Errorf("text = %q", r.Text)
	}
	if err := checkReport(*r); err != nil {
		t.Errorf("the broker refuses it: %v", err)
	}
	ev, _ = ParseHook(HookClaude, []byte(`{"hook_event_name":"StopFailure"}`))
	if ev.Report == nil || !strings.Contains(ev.Report.Text, "an API error ended the turn") {
		t.Errorf("a StopFailure without words = %+v", ev.Report)
	}
}
