package codexhook

import (
	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/claude/claudehook"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// HookName is the name Codex's hooks go by: `sentinel hook codex`.
const HookName = "codex"

// HookDialect is Codex's hook language: Claude-shaped hooks (the shared
// payload shape, with commands often an argv like ["bash","-lc",SCRIPT],
// apply_patch's patch in tool_input.command) answered in Claude Code's
// format (claudehook.HookAnswer), except that an allow is silence (Answer).
// `sentinel run`
// drives Codex through app-server (its config.toml turns hooks off);
// `sentinel exec -- codex` through these hooks (inplace.go), as can a
// person who routes their own Codex's hooks to Sentinel.
var HookDialect hooks.Dialect = dialect{}

type dialect struct{}

func (dialect) Name() string { return HookName }

func (dialect) Parse(payload []byte) (hooks.Event, error) { return hooks.Read(HookName, payload) }

// Answer: a deny, and any PermissionRequest answer, in Claude Code's
// format; a tool call's allow is an exit 0 with no output, because 0.171.0
// calls a PreToolUse permissionDecision "allow" unsupported and marks the
// hook failed (measured; the call then runs anyway).
func (dialect) Answer(ev hooks.Event, d wire.Decision) hooks.Answer {
	if d.Allowed() && hooks.NormEvent(ev.Name) != "permissionrequest" {
		return hooks.Answer{}
	}
	return claudehook.HookAnswer(ev, d)
}

// Note: Codex 0.171.0's PostToolUse output takes
// hookSpecificOutput.additionalContext (its post-tool-use.command.output
// schema), in Claude Code's shape, and adds it to the tool's result.
func (dialect) Note(ev hooks.Event, note string) []byte {
	if hooks.NormEvent(ev.Name) != "posttooluse" {
		return nil
	}
	return claudehook.HookDialect.Note(ev, note)
}
