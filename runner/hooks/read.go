package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/flatjson"
)

// payload holds the fields the agents send; names vary by agent.
type payload struct {
	Event, EventAlt     string // hook_event_name, event
	Tool, ToolAlt       string // tool_name, tool
	Input               member // tool_input, else input
	Response            member // tool_response, else tool_output
	Cwd                 string
	ToolUseID, CallID   string // tool_use_id, call_id
	Message, StopReason string
	Error               []byte // PostToolUseFailure: why the call failed; StopFailure: the API error's type
	Details             string // error_details — StopFailure: the API error's words
	LastWords           string // last_assistant_message — StopFailure: what the agent showed last (its error message)
}

// readPayload reads a payload without reflection (internal/flatjson): a
// hook process lives for one call, and encoding/json's first look at a
// struct type cost it more than the rest of its work. Names are matched
// exactly, as the agents' own JSON readers match them; a member of the
// wrong type is an error, as decoding it into the struct would be.
func readPayload(data []byte) (payload, error) {
	o, err := flatjson.Parse(data)
	if err != nil {
		return payload{}, err
	}
	var p payload
	if err := o.ReadStrings(flatjson.Field{Dst: &p.Event, Name: "hook_event_name"}, flatjson.Field{Dst: &p.EventAlt, Name: "event"},
		flatjson.Field{Dst: &p.Tool, Name: "tool_name"}, flatjson.Field{Dst: &p.ToolAlt, Name: "tool"},
		flatjson.Field{Dst: &p.Cwd, Name: "cwd"}, flatjson.Field{Dst: &p.ToolUseID, Name: "tool_use_id"},
		flatjson.Field{Dst: &p.CallID, Name: "call_id"}, flatjson.Field{Dst: &p.Message, Name: "message"},
		flatjson.Field{Dst: &p.StopReason, Name: "stop_reason"}, flatjson.Field{Dst: &p.Details, Name: "error_details"},
		flatjson.Field{Dst: &p.LastWords, Name: "last_assistant_message"}); err != nil {
		return payload{}, err
	}
	p.Input, p.Response = memberOf(o, "tool_input", "input"), memberOf(o, "tool_response", "tool_output")
	p.Error = o.Raw("error")
	return p, nil
}

// member is one of the payload's members, read in place: the payload was
// validated whole, so its largest (a Write's content, a command's output)
// is not scanned again.
type member struct {
	of   flatjson.Object
	name string
}

// memberOf is o's member name, or alt when there is no name.
func memberOf(o flatjson.Object, name, alt string) member {
	if o.Raw(name) == nil {
		name = alt
	}
	return member{of: o, name: name}
}

// raw is the member's JSON, nil when absent.
func (m member) raw() []byte { return m.of.Raw(m.name) }

// Read reads one hook payload of the shared shape, as adapter's. Anything
// it cannot read is an error; the caller denies.
func Read(adapter string, data []byte) (Event, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return Event{}, errors.New("empty hook payload on stdin")
	}
	p, err := readPayload(data)
	if err != nil {
		return Event{}, fmt.Errorf("hook payload: %w", err)
	}
	name := first(p.Event, p.EventAlt)
	tool := first(p.Tool, p.ToolAlt)
	input := p.Input
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
		rep := toolReport(tool, input, p.Response)
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
		reason := errorWords(p.Error, first(p.Details, p.LastWords))
		ev.Report = &wire.Report{Lane: "coder", Kind: coderstream.CoderStopFailure, Text: "StopFailure: " + reason, Reason: reason,
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
