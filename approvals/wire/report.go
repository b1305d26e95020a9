package wire

import (
	"encoding/json"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Report is something an adapter observed that needs no decision: a tool's
// result (PostToolUse), the coder stopping, a notification. The broker
// journals it on the named lane ("tool" or "coder"), marked as the coder's
// (see approvals/report.go).
type Report struct {
	Lane       string       `json:"lane"`
	Kind       journal.Kind `json:"kind"` // a report kind (coderstream: tool-result, coder-stop, notification, …)
	Text       string       `json:"text"`
	Tool       string       `json:"tool,omitempty"`
	ToolCallID string       `json:"tool_call_id,omitempty"`
	Adapter    string       `json:"adapter,omitempty"`
	ExitCode   *int         `json:"exit_code,omitempty"`
	Failed     bool         `json:"failed,omitempty"` // a tool call that failed (see approvals.ToolOutcome)
	// Reason is a coder-stop-failure's cause as a value: the agent's own
	// error, which the run reports as its failure (Text is its display).
	Reason string          `json:"reason,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}
