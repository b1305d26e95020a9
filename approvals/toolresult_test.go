package approvals

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func toolEvent(t *testing.T, kind journal.Kind, data any) journal.Event {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return journal.Event{Lane: journal.Tool, Kind: kind, Data: b}
}

func TestToolOutcomeReadsFailureAsData(t *testing.T) {
	one, zero := 1, 0
	tests := []struct {
		name         string
		ev           journal.Event
		done, failed bool
	}{
		{"an adapter's failed result", toolEvent(t, "tool-result", ToolResult{Failed: true}), true, true},
		{"an adapter's result that went well", toolEvent(t, "tool-result", ToolResult{ExitCode: &zero}), true, false},
		{"a report with a non-zero exit", toolEvent(t, "result", Report{ExitCode: &one}), true, true},
		{"a report saying it failed", toolEvent(t, "tool-result", Report{Failed: true}), true, true},
		{"undecodable data: finished, not failed", journal.Event{Lane: journal.Tool, Kind: "tool-result", Data: []byte(`[1]`)}, true, false},
		// The words in the text are display only.
		{"failure spelled only in the text", journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "error: → exit 1"}, true, false},
		{"a tool call is not a result", toolEvent(t, "tool-call", ToolResult{Failed: true}), false, false},
		{"not the tool lane", journal.Event{Lane: journal.System, Kind: "tool-result", Data: []byte(`{"failed":true}`)}, false, false},
	}
	for _, tc := range tests {
		done, failed := ToolOutcome(tc.ev)
		if done != tc.done || failed != tc.failed {
			t.Errorf("%s: ToolOutcome = %v, %v; want %v, %v", tc.name, done, failed, tc.done, tc.failed)
		}
	}
}

func TestToolCountsCountsACallReportedTwiceOnce(t *testing.T) {
	evs := []journal.Event{
		toolEvent(t, "tool-result", ToolResult{ToolCallID: "a"}),           // the stream: went well
		toolEvent(t, "tool-result", Report{ToolCallID: "a", Failed: true}), // its hook: failed
		toolEvent(t, "tool-result", ToolResult{ToolCallID: "b"}),
		toolEvent(t, "tool-result", ToolResult{Failed: true}), // no id: its own call
		toolEvent(t, "tool-result", ToolResult{Failed: true}),
	}
	if calls, failed := ToolCounts(evs); calls != 4 || failed != 3 {
		t.Errorf("ToolCounts = %d calls, %d failed; want 4, 3", calls, failed)
	}
	if f := FailedToolCalls(evs); len(f) != 3 {
		t.Errorf("FailedToolCalls = %d events, want 3", len(f))
	}
}

func TestToolResultDataDropsAnAgentMessageThatIsNotJSON(t *testing.T) {
	var r ToolResult
	if err := json.Unmarshal(ToolResult{Failed: true, Agent: json.RawMessage("{not json")}.Data(), &r); err != nil || !r.Failed || r.Agent != nil {
		t.Errorf("Data() = %+v (%v)", r, err)
	}
}
