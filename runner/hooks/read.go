package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/coderstream"
)

// payload holds the fields the agents send; names vary by agent.
type payload struct {
	Event      string          `json:"hook_event_name"`
	EventAlt   string          `json:"event"`
	Tool       string          `json:"tool_name"`
	ToolAlt    string          `json:"tool"`
	Input      json.RawMessage `json:"tool_input"`
	InputAlt   json.RawMessage `json:"input"`
	Response   json.RawMessage `json:"tool_response"`
	Output     json.RawMessage `json:"tool_output"`
	Cwd        string          `json:"cwd"`
	ToolUseID  string          `json:"tool_use_id"`
	CallID     string          `json:"call_id"`
	Message    string          `json:"message"`
	StopReason string          `json:"stop_reason"`
	Error      json.RawMessage `json:"error"`                  // PostToolUseFailure: why the call failed; StopFailure: the API error's type
	Details    string          `json:"error_details"`          // StopFailure: the API error's words
	LastWords  string          `json:"last_assistant_message"` // StopFailure: what the agent showed last (its error message)
}

// Read reads one hook payload of the shared shape, as adapter's. Anything
// it cannot read is an error; the caller denies.
func Read(adapter string, data []byte) (Event, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Event{}, errors.New("empty hook payload on stdin")
	}
	var p payload
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&p); err != nil {
		return Event{}, fmt.Errorf("hook payload is not JSON: %w", err)
	}
	if dec.More() {
		return Event{}, errors.New("hook payload has trailing data after the JSON object")
	}
	name := first(p.Event, p.EventAlt)
	tool := first(p.Tool, p.ToolAlt)
	input := p.Input
	if len(input) == 0 {
		input = p.InputAlt
	}
	ev := Event{Adapter: adapter, Name: name}
	callID := first(p.ToolUseID, p.CallID)
	switch NormEvent(name) {
	case "pretooluse", "beforetool", "permissionrequest", "":
		if tool == "" {
			return Event{}, fmt.Errorf("hook event %q names no tool", name)
		}
		req, err := toolRequest(tool, input, p.Cwd)
		if err != nil {
			return Event{}, err
		}
		req.Adapter, req.ToolCallID = adapter, callID
		ev.Request = &req
	case "posttooluse", "aftertool":
		rep := toolReport(tool, input, first(string(p.Response), string(p.Output)))
		rep.Adapter, rep.ToolCallID = adapter, callID
		ev.Report = &rep
	case "posttoolusefailure":
		rep := toolFailureReport(tool, input, p.Error)
		rep.Adapter, rep.ToolCallID = adapter, callID
		ev.Report = &rep
	case "stopfailure":
		// Claude Code's turn ended on an API error instead of a Stop: the
		// coder never reached its model (or lost it). The text is the
		// agent's own error, for the run's failure (runner.CoderFailed).
		ev.Report = &wire.Report{Lane: "coder", Kind: coderstream.CoderStopFailure, Text: "StopFailure: " + errorWords(p.Error, first(p.Details, p.LastWords)),
			Adapter: adapter, Data: json.RawMessage(data)}
	default:
		text := first(p.Message, p.StopReason, name)
		kind := coderstream.Hook // any other hook event: its name leads the text
		switch NormEvent(name) {
		case "stop", "subagentstop", "afteragent", "sessionend":
			kind = coderstream.CoderStop
		case "notification":
			kind = coderstream.Notification
		}
		if kind != coderstream.Notification && text != name {
			text = name + ": " + text
		}
		// the coder's lane: the broker takes reports only on the coder and tool lanes
		ev.Report = &wire.Report{Lane: "coder", Kind: kind, Text: text, Adapter: adapter, Data: json.RawMessage(data)}
	}
	return ev, nil
}

// NormEvent is an event name compared across the agents' spellings:
// PreToolUse, pre_tool_use and PRETOOLUSE are one.
func NormEvent(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, "_", ""))
}
