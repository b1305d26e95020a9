// Package claudehook is Claude Code's hook dialect (hooks.Dialect), beside
// its adapter (runner/claude) but a package of its own: `sentinel hook
// claude` runs on every tool call and must link none of the adapter.
package claudehook

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// Name is the name Claude Code's hooks go by: `sentinel hook claude`.
const Name = "claude"

// Dialect is Claude Code's hook language: the shared payload shape in,
// hookSpecificOutput out (Answer), and notes handed to the model with a
// tool's result (additionalContext).
var Dialect hooks.Dialect = dialect{}

type dialect struct{}

func (dialect) Name() string { return Name }

func (dialect) Parse(payload []byte) (hooks.Event, error) { return hooks.Read(Name, payload) }

func (dialect) Answer(ev hooks.Event, d wire.Decision) hooks.Answer { return Answer(ev, d) }

// Note: Claude Code reads additionalContext from PostToolUse (and
// PostToolUseFailure) and shows it to the model with the tool's result.
func (dialect) Note(ev hooks.Event, note string) []byte {
	if note == "" {
		return nil
	}
	switch hooks.NormEvent(ev.Name) {
	case "posttooluse", "posttoolusefailure":
	default:
		return nil
	}
	b, err := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": ev.Name, "additionalContext": note}})
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// Answer writes d in Claude Code's hook format: a PermissionRequest gets a
// decision {behavior, message}, any other event a PreToolUse
// permissionDecision with its reason. Codex's hooks take the same answers.
func Answer(ev hooks.Event, d wire.Decision) hooks.Answer {
	return hooks.Reply(d, func(allowed bool, reason string) any {
		if hooks.NormEvent(ev.Name) == "permissionrequest" {
			dec := map[string]any{"behavior": "allow"}
			if !allowed {
				dec = map[string]any{"behavior": "deny", "message": reason}
			}
			return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": dec}}
		}
		return map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": hooks.Word(allowed), "permissionDecisionReason": reason}}
	})
}
