package coder

import "time"

// Denied is a tool call the agent refused itself after Sentinel had
// answered it: by the person's own rules for the agent, or at the agent's
// own prompt. It is the agent's word, read from a record the coder could
// write: a view says so, and it never turns a call Sentinel refused into
// an allowed one.
type Denied struct {
	ToolUseID string
	Tool      string
	// By is how the agent refused it: DeniedByRules or DeniedAtPrompt.
	By string
	// Text is what the agent told its model, as it said it.
	Text string
}

// How an agent refused a call.
const (
	DeniedByRules  = "rules"  // the person's own rules for the agent (a deny rule)
	DeniedAtPrompt = "prompt" // the person, at the agent's own permission prompt
)

// DenialReader is an adapter that can say, once its agent has ended,
// which tool calls the agent refused itself since a time: what no hook
// reports (Claude Code's deny rules in its interactive mode).
type DenialReader interface {
	AgentDenials(since time.Time) []Denied
}
