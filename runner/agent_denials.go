package runner

import (
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// AgentDenial is a tool call the coder's agent says it refused itself
// (tool lane, coderstream.PermissionDenied), read from its own record
// once it ended: what approvals.Effective credits to the agent (the
// person's own rules for it, or their answer at its prompt, as it says).
type AgentDenial struct {
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool,omitempty"`
	By        string `json:"by"` // coder.DeniedByRules, coder.DeniedAtPrompt
	// From says where it was read ("transcript"): the agent's word.
	From string `json:"from"`
}

// journalAgentDenials journals the calls the coder's agent refused itself
// since it started, for an adapter that can say (coder.DenialReader).
func (r *coderStage) journalAgentDenials(since time.Time) {
	d, ok := r.adapter.(coder.DenialReader)
	if !ok {
		return
	}
	for _, x := range d.AgentDenials(since) {
		who := "your own " + r.adapter.Name() + " rules"
		if x.By == coder.DeniedAtPrompt {
			who = "you, at " + r.adapter.Name() + "'s own prompt"
		}
		tool := x.Tool
		if tool == "" {
			tool = "a tool call"
		}
		text := clipLine(textsafe.Line(tool+" refused by "+who+" (the agent says): "+x.Text), 300)
		r.emit(journal.Tool, coderstream.PermissionDenied, text, AgentDenial{ToolUseID: x.ToolUseID, Tool: x.Tool, By: x.By, From: "transcript"})
	}
}
