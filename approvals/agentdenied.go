package approvals

import (
	"encoding/json"
	"strings"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// ByAgentRules is the By of a decision the coder's own agent made after
// Sentinel allowed the call: the person's own rules for it (Claude Code's
// settings deny rules, which outrank a hook's allow) refused it. Effective
// says so; the broker's journaled decision stays as it was made.
const ByAgentRules = "agent-rules"

// AgentDenied are the tool call ids the coder's agent says it denied
// itself: the permission_denials of its session's result (Claude Code's
// stream-json result line), as journaled on the system lane.
func AgentDenied(evs []journal.Event) map[string]bool {
	out := map[string]bool{}
	for _, ev := range evs {
		if !ev.Is(journal.System, coderstream.Result) {
			continue
		}
		var d struct {
			Denials []struct {
				ToolUseID string `json:"tool_use_id"`
			} `json:"permission_denials"`
		}
		if json.Unmarshal(ev.Data, &d) != nil {
			continue
		}
		for _, x := range d.Denials {
			if x.ToolUseID != "" {
				out[x.ToolUseID] = true
			}
		}
	}
	return out
}

// Effective is ReadJournaled with each decision as it took effect: a call
// Sentinel allowed that the agent then denied by the person's own rules is
// a deny by ByAgentRules, its reason naming what Sentinel had said.
func Effective(evs []journal.Event) []Journaled {
	js, _ := ReadJournaled(evs)
	denied := AgentDenied(evs)
	if len(denied) == 0 {
		return js
	}
	for i, j := range js {
		if !j.Decided || !j.Decision.Allowed() || j.Request.ToolCallID == "" || !denied[j.Request.ToolCallID] {
			continue
		}
		agent := j.Request.Adapter
		if agent == "" {
			agent = "agent"
		}
		d := j.Decision
		js[i].Decision = Decision{RequestID: d.RequestID, Outcome: OutcomeDeny, By: ByAgentRules + ":" + agent,
			Reason: "refused by your own " + agent + " rules after Sentinel allowed it (" + allowedBy(d.By) + ")"}
	}
	return js
}

// allowedBy is who allowed a call, in the reports' words: "policy
// build.project", "a remembered template t-1", "you".
func allowedBy(by string) string {
	kind, detail, _ := strings.Cut(by, ":")
	switch kind {
	case "policy":
		kind = "policy"
	case "template":
		kind = "a remembered template"
	case "person":
		kind = "you"
	case BySupervisor:
		kind = "the supervisor model"
	}
	if detail != "" {
		return kind + " " + detail
	}
	return kind
}
