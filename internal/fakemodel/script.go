package fakemodel

import "encoding/json"

// Block is one content block of a scripted assistant reply: text, or a
// tool_use with a name and an input object.
type Block struct {
	Text      string
	ToolName  string
	ToolInput any    // marshalled to JSON; a map or struct
	ToolID    string // optional; generated when empty
}

// Text is a text block.
func Text(s string) Block { return Block{Text: s} }

// ToolUse is a tool_use block asking the client to run tool name with input.
func ToolUse(name string, input any) Block { return Block{ToolName: name, ToolInput: input} }

// Bash is a tool_use of Claude Code's Bash tool.
func Bash(command string) Block {
	return ToolUse("Bash", map[string]any{"command": command, "description": "scripted by the test"})
}

// Write is a tool_use of Claude Code's Write tool.
func Write(path, content string) Block {
	return ToolUse("Write", map[string]any{"file_path": path, "content": content})
}

// IsTool says whether the block is a tool_use.
func (b Block) IsTool() bool { return b.ToolName != "" }

// Turn is one scripted reply of the model. When is a predicate on the
// request being answered; a turn whose When is nil always matches.
type Turn struct {
	When   func(*Request) bool
	Blocks []Block
	// Status, when not 0 or 200, answers with that HTTP status and an
	// API-shaped error body instead of a message (e.g. 500, 529).
	Status int
	// Hang holds the request open until the client gives up or the server
	// closes (a model that never answers).
	Hang bool
}

// Fail is a turn answered with an HTTP error status.
func Fail(status int) Turn { return Turn{Status: status} }

// Hang is a turn that never answers.
func Hang() Turn { return Turn{Hang: true} }

// Reply is a turn that always matches.
func Reply(blocks ...Block) Turn { return Turn{Blocks: blocks} }

// StopReason is tool_use when the turn holds a tool_use block, else end_turn.
func (t Turn) StopReason() string {
	for _, b := range t.Blocks {
		if b.IsTool() {
			return "tool_use"
		}
	}
	return "end_turn"
}

// Script is the model's turns in order. Each main-loop request is answered
// by the first turn not yet used whose When matches it; when none is left
// the reply is the text Exhausted with stop reason end_turn.
type Script []Turn

// Exhausted is what the fake model says when its script has no turn left
// for a request.
const Exhausted = "(fake model: no scripted turn left)"

// AfterToolResult matches a request that carries tool results since the
// model's last turn (see Request.LastToolResults).
func AfterToolResult(r *Request) bool { return len(r.LastToolResults()) > 0 }

// inputJSON is the tool input as JSON text ("{}" when nil).
func (b Block) inputJSON() (string, error) {
	if b.ToolInput == nil {
		return "{}", nil
	}
	raw, err := json.Marshal(b.ToolInput)
	return string(raw), err
}
