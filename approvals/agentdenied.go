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

// How the agent refused a call, as AgentDenied says.
const (
	agentByRules  = "rules"  // the person's own rules for the agent
	agentAtPrompt = "prompt" // the person, at the agent's own prompt
)

// AgentDenied are the tool call ids the coder's agent says it denied
// itself, each with how: the permission_denials of its session's result
// (Claude Code's stream-json result line, journaled on the system lane),
// and the refusals read from its own record once it ended (a tool-lane
// permission-denied event naming the call: Claude Code's transcripts,
// the only record of a deny rule in its interactive mode). A call whose
// hook reported it finished is not among them: it ran.
func AgentDenied(evs []journal.Event) map[string]string {
	out := map[string]string{}
	ran := map[string]bool{}
	for _, ev := range evs {
		switch {
		case ev.Is(journal.System, coderstream.Result):
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
					out[x.ToolUseID] = agentByRules
				}
			}
		case ev.Is(journal.Tool, coderstream.PermissionDenied):
			var d struct {
				ToolUseID string `json:"tool_use_id"`
				By        string `json:"by"`
			}
			if json.Unmarshal(ev.Data, &d) != nil || d.ToolUseID == "" {
				continue
			}
			if d.By == agentAtPrompt {
				out[d.ToolUseID] = agentAtPrompt
			} else if _, seen := out[d.ToolUseID]; !seen {
				out[d.ToolUseID] = agentByRules
			}
		default:
			if id, finished, _ := toolOutcome(ev); finished && id != "" {
				ran[id] = true
			}
		}
	}
	for id := range ran {
		delete(out, id)
	}
	return out
}

// Effective is ReadJournaled with each decision as it took effect: a call
// Sentinel allowed that the agent then denied by the person's own rules is
// a deny by ByAgentRules, its reason naming what Sentinel had said; so is
// one the agent says the person declined at its own prompt (its word, so
// never the person's answer in the record).
func Effective(evs []journal.Event) []Journaled {
	js, _ := ReadJournaled(evs)
	denied := AgentDenied(evs)
	if len(denied) == 0 {
		return js
	}
	for i, j := range js {
		if !j.Decided || !j.Decision.Allowed() || j.Request.ToolCallID == "" {
			continue
		}
		how, ok := denied[j.Request.ToolCallID]
		if !ok {
			continue
		}
		agent := j.Request.Adapter
		if agent == "" {
			agent = "agent"
		}
		d := j.Decision
		if how == agentAtPrompt {
			// The agent's word, not the person's answer to Sentinel: it is
			// credited to the agent, never to "person" (a coder could write it).
			js[i].Decision = Decision{RequestID: d.RequestID, Outcome: OutcomeDeny, By: ByAgentRules + ":" + agent,
				Reason: "declined at " + agent + "'s own prompt after Sentinel allowed it, the agent says (" + allowedBy(d.By) + ")"}
			continue
		}
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
