package approvals

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func jev(lane journal.Lane, kind journal.Kind, data string) journal.Event {
	return journal.Event{Lane: lane, Kind: kind, Data: json.RawMessage(data)}
}

// A refusal the agent's own record names (Claude Code's transcript, in its
// interactive mode) changes what took effect as the stream's result does:
// by the person's rules, or by the person at the agent's prompt. A call
// whose hook reported it finished ran, whatever its record claims.
func TestEffectiveReadsTheAgentsOwnRecordOfRefusals(t *testing.T) {
	var evs []journal.Event
	for _, id := range []string{"1", "2", "3"} {
		evs = append(evs,
			jev(journal.Approval, "request", `{"id":"r-`+id+`","kind":"shell","command":"c`+id+`","adapter":"claude","tool_call_id":"tu`+id+`"}`),
			jev(journal.Approval, "decision", `{"request_id":"r-`+id+`","decision":"allow","by":"policy:x"}`))
	}
	evs = append(evs,
		jev(journal.Tool, coderstream.PermissionDenied, `{"tool_use_id":"tu1","by":"rules","from":"transcript"}`),
		jev(journal.Tool, coderstream.PermissionDenied, `{"tool_use_id":"tu2","by":"prompt","from":"transcript"}`),
		jev(journal.Tool, coderstream.PermissionDenied, `{"tool_use_id":"tu3","by":"rules","from":"transcript"}`),
		jev(journal.Tool, coderstream.ToolResult, `{"tool_call_id":"tu3"}`), // its hook said it ran
	)
	js := Effective(evs)
	if len(js) != 3 {
		t.Fatalf("decisions = %d", len(js))
	}
	if d := js[0].Decision; d.Allowed() || d.By != ByAgentRules+":claude" {
		t.Errorf("tu1 = %+v, want a deny by claude's rules", d)
	}
	if d := js[1].Decision; d.Allowed() || d.By != ByAgentRules+":claude" || !strings.Contains(d.Reason, "own prompt") {
		t.Errorf("tu2 = %+v, want a deny at claude's own prompt, credited to the agent (its word), never to the person", d)
	}
	if d := js[2].Decision; !d.Allowed() {
		t.Errorf("tu3 = %+v, want the allow kept: its hook reported it ran", d)
	}
}
