// Package hooks owns what every agent hook dialect shares: the contract a
// dialect meets (Dialect: read a payload into an Event, write a Decision
// back as the agent's Answer, hand a note to the agent), the answer's
// common rules (Reply: a deny also exits 2 with its reason on stderr;
// Failure: a hook that could not get a decision is such a deny), and the
// reader of the hook payload shape Claude Code introduced and Codex,
// Gemini CLI and Crush share (Read: event and tool names, tool_input mapped
// to a broker Request, tool results and stops to Reports).
//
// Each agent's own dialect lives beside its adapter: runner/claude/claudehook,
// runner/codex/codexhook, runner/geminicli/geminihook,
// runner/opencode/opencodehook and runner/crush; runner/dialects is the one
// registry `sentinel hook <agent>` looks a dialect up in. Adding an agent
// whose hooks speak this shape is a Dialect in its adapter's folder and a
// line in that registry.
//
// A hook runs once per tool call, so this package and the dialects stay
// light: they import approvals/wire (the agent-neutral Request, Report and
// Decision), policy/kind and internal/coderstream, nothing heavier — not
// the policy engine: a command an agent gives as words goes to the broker
// as Request.Argv, and the broker reads it (approvals.ShellCommand).
//
// It must not decide anything (the broker does) and must never fail open:
// a payload it cannot read is an error, which the hook answers with a deny.
package hooks
