package approvals

import (
	"encoding/json"
	"fmt"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// ProtocolVersion is the version of the broker's socket protocol
// (PROTOCOL.md). A message with another version is answered with a deny.
const ProtocolVersion = 1

// maxMessage bounds one protocol line (a Write tool's content travels in
// Input); a longer line is a malformed request.
const maxMessage = 16 << 20

// Message types.
const (
	msgRequest  = "request"  // client → broker: ask for a decision
	msgReport   = "report"   // client → broker: something happened; journal it
	msgDecision = "decision" // broker → client: the one answer to a request
	msgAck      = "ack"      // broker → client: a report was journaled
	msgError    = "error"    // broker → client: a report could not be taken
)

// message is one line of the protocol, in either direction.
type message struct {
	V        int       `json:"v"`
	Type     string    `json:"type"`
	ID       string    `json:"id,omitempty"` // chosen by the client; echoed in the answer
	Request  *Request  `json:"request,omitempty"`
	Report   *Report   `json:"report,omitempty"`
	Decision *Decision `json:"decision,omitempty"`
	Error    string    `json:"error,omitempty"`
	// Note, on an ack of a tool result: what Sentinel refused meanwhile
	// that the coder's agent should be told (see Broker.NoteForCoder).
	Note string `json:"note,omitempty"`
}

// Report is something an adapter observed that needs no decision: a tool's
// result (PostToolUse), the coder stopping, a notification. The broker
// journals it on the named lane ("tool" or "coder"), marked as the coder's
// (see record).
type Report struct {
	Lane       string          `json:"lane"`
	Kind       journal.Kind    `json:"kind"` // a report kind (coderstream: tool-result, coder-stop, notification, …)
	Text       string          `json:"text"`
	Tool       string          `json:"tool,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Adapter    string          `json:"adapter,omitempty"`
	ExitCode   *int            `json:"exit_code,omitempty"`
	Failed     bool            `json:"failed,omitempty"` // a tool call that failed (see ToolOutcome)
	Data       json.RawMessage `json:"data,omitempty"`
}

// validate checks a request names a known kind and what that kind needs.
func (r Request) validate() error {
	switch r.Kind {
	case "shell":
		if r.Command == "" {
			return fmt.Errorf("a shell request needs a command")
		}
	case "write", "edit", "read":
		if r.Path == "" {
			return fmt.Errorf("a %s request needs a path", r.Kind)
		}
	case "net":
		if r.Host == "" && r.URL == "" {
			return fmt.Errorf("a net request needs a host or url")
		}
	case "mcp", "other":
		if r.Tool == "" {
			return fmt.Errorf("a %s request needs a tool name", r.Kind)
		}
	case "":
		return fmt.Errorf("the request has no kind (want shell, write, edit, read, net, mcp or other)")
	default:
		return fmt.Errorf("unknown request kind %q (want shell, write, edit, read, net, mcp or other)", r.Kind)
	}
	return nil
}

// Summary is the one line a person reads for a request.
func (r Request) Summary() string {
	switch r.Kind {
	case "shell":
		return r.Command
	case "write", "edit", "read":
		return r.Path
	case "net":
		host, port := requestHost(r)
		if port != 0 {
			return fmt.Sprintf("%s:%d", host, port)
		}
		if host != "" {
			return host
		}
		return r.URL
	}
	return r.Tool
}
