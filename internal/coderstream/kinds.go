// Package coderstream names what a coder says about its own work, as it is
// journaled on the coder, tool and system lanes: the kinds every coder
// adapter (claude, codex, acp, the command and demo coders) and the broker's
// reports use, so a view switches on one vocabulary whatever the agent, and
// the payload views read from a tool's result.
//
// Everything journaled with these kinds came from inside the sandbox (the
// agent's stream, its hooks, its reports): it is the coder's word and
// hostile input to every reader. Kinds are stable strings on disk (see
// package journal).
package coderstream

import "github.com/sentinelhq/sentinel/internal/journal"

// The coder's kinds.
const (
	// Output is a raw chunk of the coder's terminal output (coder lane).
	Output journal.Kind = "output"
	// Text is what the agent said (coder lane); UserText is a user turn its
	// stream echoed back.
	Text     journal.Kind = "text"
	UserText journal.Kind = "user-text"
	Thinking journal.Kind = "thinking"
	Plan     journal.Kind = "plan"
	// Init is a session or thread starting; TurnStart and TurnEnd bound one
	// turn; Result is a turn's or session's end on the system lane, and a
	// tool's result on the tool lane.
	Init      journal.Kind = "init"
	TurnStart journal.Kind = "turn-start"
	TurnEnd   journal.Kind = "turn-end"
	Result    journal.Kind = "result"
	// ToolCall is a tool call the agent started; Run is a command it started
	// (ACP's execute calls); ToolResult is a tool call's result.
	ToolCall   journal.Kind = "tool-call"
	Run        journal.Kind = "run"
	ToolResult journal.Kind = "tool-result"
	// StreamCall and StreamResult are a tool call and its result as an
	// agent's output stream repeats them while its hooks already carry the
	// call (Claude Code headless: PreToolUse asks, PostToolUse and
	// PostToolUseFailure report): journaled, never shown in a lane (Quiet),
	// so a lane shows each call once, as in the agent's interactive mode.
	StreamCall   journal.Kind = "stream-tool-call"
	StreamResult journal.Kind = "stream-tool-result"
	// Write and Edit are files the coder wrote or edited.
	Write journal.Kind = "write"
	Edit  journal.Kind = "edit"
	// PermissionDenied is the agent saying one of its tool calls was denied.
	PermissionDenied journal.Kind = "permission-denied"
	// CoderStop, Notification and Hook are hook events the coder reported:
	// it stopped, it wants attention, any other hook.
	CoderStop journal.Kind = "coder-stop"
	// CoderStopFailure is the agent's turn ending on an API error instead
	// of a stop (Claude Code's StopFailure hook): its text is the error.
	CoderStopFailure journal.Kind = "coder-stop-failure"
	Notification     journal.Kind = "notification"
	Hook             journal.Kind = "hook"
	// Mode is the agent's session mode as Sentinel set it.
	Mode journal.Kind = "mode"
	// System is an agent's own system message (e.g. Claude Code's).
	System journal.Kind = "system"
	// Lifecycle is an agent's own bookkeeping about its session (Claude
	// Code's task_started, hook_started, status lines): journaled, never
	// shown in a lane (Quiet).
	Lifecycle journal.Kind = "lifecycle"
	// ApprovalError is an approval the adapter could not route or answer.
	ApprovalError journal.Kind = "approval-error"
	// Error and Warning are the agent's (or its protocol's) errors and
	// warnings; Unknown is a message the adapter does not know, kept as is.
	Error   journal.Kind = "error"
	Warning journal.Kind = "warning"
	Unknown journal.Kind = "unknown"
)

// ToolOutput is what views read from a tool's result (tool lane, Result or
// ToolResult): its exit code and output, under the names the emitters use.
// Every field is optional.
type ToolOutput struct {
	ExitCode   *int   `json:"exit_code,omitempty"`
	Output     string `json:"output,omitempty"`
	OutputTail string `json:"output_tail,omitempty"`
	Tail       string `json:"tail,omitempty"`
}

// Shown is the output a view shows: the first of Output, OutputTail, Tail.
func (o ToolOutput) Shown() string {
	for _, s := range []string{o.Output, o.OutputTail, o.Tail} {
		if s != "" {
			return s
		}
	}
	return ""
}

// AsToolOutput decodes a tool's result.
func AsToolOutput(ev journal.Event) (ToolOutput, bool) {
	return journal.As[ToolOutput](ev, journal.Tool, Result, ToolResult)
}
