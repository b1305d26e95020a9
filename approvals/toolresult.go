package approvals

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// ToolResult is the data of a finished tool call's journal event when an
// adapter decoded it from its agent's own stream (Claude Code's stream-json,
// Codex's app-server): how the call went, as data, and the agent's message as
// it sent it. A Report from a hook carries the same "failed" and
// "exit_code" fields at its top level, so one reader (ToolOutcome) serves
// every finished tool call. Like everything the agent says, it is the
// coder's word.
type ToolResult struct {
	Failed     bool            `json:"failed"`
	ExitCode   *int            `json:"exit_code,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Agent      json.RawMessage `json:"agent,omitempty"` // the agent's line or notification as sent
}

// Data is r as journal event data; Agent is kept only when it is JSON.
func (r ToolResult) Data() json.RawMessage {
	if len(r.Agent) > 0 && !json.Valid(r.Agent) {
		r.Agent = nil
	}
	b, _ := json.Marshal(r) // a struct of plain fields and valid raw JSON always marshals
	return b
}

// IsToolResult says whether ev is a finished tool call: a tool-lane
// "tool-result" (agent streams, hooks) or "result" (ACP agents, the demo
// coder).
func IsToolResult(ev journal.Event) bool {
	return ev.Lane == journal.Tool && (ev.Kind == coderstream.ToolResult || ev.Kind == coderstream.Result)
}

// ToolOutcome says whether ev is a finished tool call and whether it
// failed: its data says "failed": true, or an exit code other than 0.
func ToolOutcome(ev journal.Event) (finished, failed bool) {
	_, finished, failed = toolOutcome(ev)
	return finished, failed
}

func toolOutcome(ev journal.Event) (callID string, finished, failed bool) {
	if !IsToolResult(ev) {
		return "", false, false
	}
	var d struct {
		Failed     bool   `json:"failed"`
		ExitCode   *int   `json:"exit_code"`
		ToolCallID string `json:"tool_call_id"`
	}
	_ = ev.Decode(&d) // undecodable data: a finished call that did not say it failed
	return d.ToolCallID, true, d.Failed || (d.ExitCode != nil && *d.ExitCode != 0)
}

// FailedToolCalls are the failed calls' events, one per call.
func FailedToolCalls(evs []journal.Event) []journal.Event {
	var out []journal.Event
	for _, c := range toolCalls(evs) {
		if c.failed {
			out = append(out, c.ev)
		}
	}
	return out
}

// ToolCounts totals the finished tool calls in a journal and how many
// failed. A call reported twice with the same tool call id (the agent's
// stream and its hook both tell of it) counts once, failed if either says so.
func ToolCounts(evs []journal.Event) (calls, failed int) {
	cs := toolCalls(evs)
	for _, c := range cs {
		if c.failed {
			failed++
		}
	}
	return len(cs), failed
}

type toolCall struct {
	ev     journal.Event // the first event that said it failed, else the first
	failed bool
}

// toolCalls are the finished tool calls in evs, one per call id.
//
// The agent's stream's copy of a result (Claude Code's stream-json) counts
// too, once per call id: a call no hook reports on (an MCP call that failed
// without PostToolUseFailure) is still a call, and a failed one. A call
// Sentinel or the agent's own rules denied is a decision, not a tool call:
// its stream result (the deny the agent passed to its model) is not counted.
func toolCalls(evs []journal.Event) []toolCall {
	var out []toolCall
	byID := map[string]int{}
	denied := deniedCalls(evs)
	for id := range AgentDenied(evs) {
		denied[id] = true
	}
	for _, ev := range evs {
		id, done, bad := toolOutcome(ev)
		if !done {
			id, done, bad = streamOutcome(ev)
			if !done || id == "" || denied[id] {
				continue
			}
		}
		if i, seen := byID[id]; seen && id != "" {
			if bad && !out[i].failed {
				out[i] = toolCall{ev, true}
			}
			continue
		}
		if id != "" {
			byID[id] = len(out)
		}
		out = append(out, toolCall{ev, bad})
	}
	return out
}

// streamOutcome reads an agent stream's tool result (ToolResult data on a
// coderstream.StreamResult event).
func streamOutcome(ev journal.Event) (callID string, finished, failed bool) {
	if !ev.Is(journal.Tool, coderstream.StreamResult) {
		return "", false, false
	}
	var d ToolResult
	if ev.Decode(&d) != nil {
		return "", false, false
	}
	return d.ToolCallID, true, d.Failed || (d.ExitCode != nil && *d.ExitCode != 0)
}

// deniedCalls are the tool call ids of the requests Sentinel denied.
func deniedCalls(evs []journal.Event) map[string]bool {
	out := map[string]bool{}
	js, _ := ReadJournaled(evs)
	for _, j := range js {
		if j.Decided && !j.Decision.Allowed() && j.Request.ToolCallID != "" {
			out[j.Request.ToolCallID] = true
		}
	}
	return out
}
