package approvals

import (
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// A failed call only the agent's stream tells of (an MCP call with no
// PostToolUseFailure) is a failed call; the stream's copy of a call a hook
// reported counts once; the stream's result of a call Sentinel denied is
// the deny, not a call.
func TestToolCountsTakeTheStreamsResults(t *testing.T) {
	approval := func(kind journal.Kind, data any) journal.Event {
		b, _ := json.Marshal(data)
		return journal.Event{Lane: journal.Approval, Kind: kind, Data: b}
	}
	evs := []journal.Event{
		toolEvent(t, "tool-result", Report{ToolCallID: "a"}),                                // the hook
		toolEvent(t, coderstream.StreamResult, ToolResult{ToolCallID: "a"}),                 // …and the stream
		toolEvent(t, coderstream.StreamResult, ToolResult{ToolCallID: "mcp", Failed: true}), // the stream alone
		approval("request", Request{ID: "r1", Kind: policy.KindShell, Command: "curl x", ToolCallID: "d"}),
		approval("decision", Decision{RequestID: "r1", Outcome: OutcomeDeny, By: "person"}),
		toolEvent(t, coderstream.StreamResult, ToolResult{ToolCallID: "d", Failed: true}), // the deny as the model saw it
		toolEvent(t, coderstream.StreamResult, ToolResult{Failed: true}),                  // no id: cannot be matched, not counted
	}
	if calls, failed := ToolCounts(evs); calls != 2 || failed != 1 {
		t.Errorf("ToolCounts = %d calls, %d failed; want 2, 1", calls, failed)
	}
	if f := FailedToolCalls(evs); len(f) != 1 || f[0].Kind != coderstream.StreamResult {
		t.Errorf("FailedToolCalls = %+v, want the MCP call's stream result", f)
	}
}
