package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// UserMessage is one stream-json input line carrying a user message, for
// `claude -p --input-format stream-json` (the task, and each steering text).
func UserMessage(text string) []byte {
	b, _ := json.Marshal(map[string]any{
		"type":    "user",
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": text}}},
	})
	return append(b, '\n')
}

// Line is one thing Claude Code's stream-json output said, ready for the
// journal: assistant text on the coder lane, tool calls and their results
// on the tool lane, the session's start and its result on the system lane.
type Line struct {
	Lane journal.Lane
	Kind journal.Kind // one of coderstream's kinds
	Text string
	Data json.RawMessage // the line as Claude Code wrote it; a tool-result's is an approvals.ToolResult
	// Err is set on a result line that ended in an error: Claude Code's
	// own message (the session failed, e.g. the model API refused).
	Err string
}

type streamLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Model   string `json:"model"`
	// Message is an object (assistant, user) or a string (system lines).
	Message  json.RawMessage `json:"message"`
	Result   string          `json:"result"`
	IsError  bool            `json:"is_error"`
	ToolName string          `json:"tool_name"`
	Denials  []struct {
		ToolName string `json:"tool_name"`
	} `json:"permission_denials"`
	NumTurns int             `json:"num_turns"`
	Errors   json.RawMessage `json:"errors"` // an error result's messages (e.g. error_during_execution)
	// MCPServers are the init line's MCP servers and how each connected.
	MCPServers []mcpServerStatus `json:"mcp_servers"`
}

type streamBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	ToolUseID string          `json:"tool_use_id"`
}

// lifecycleSubtypes are Claude Code's system lines about its own session
// bookkeeping (its hooks running, a background task starting, a status
// change): journaled as coderstream.Lifecycle, which no lane shows. Any
// other subtype stays a shown system line.
var lifecycleSubtypes = map[string]bool{
	"hook_started": true, "hook_progress": true, "hook_response": true,
	"task_started": true, "task_progress": true, "status": true, "files_persisted": true,
}

// maxText bounds one event's text; the whole line stays in Data.
const maxText = 4000

// DecodeLine turns one stdout line of `claude -p --output-format
// stream-json` into journal-ready lines (an assistant message may hold
// several blocks). Blank lines give nothing; a line that is not JSON comes
// back as one coder "unknown" line with the raw text, never an error, so a
// stray warning on stdout is still journaled.
func DecodeLine(raw []byte) []Line {
	s := strings.TrimSpace(string(raw))
	if s == "" {
		return nil
	}
	data := json.RawMessage(s)
	var l streamLine
	if err := json.Unmarshal(data, &l); err != nil || l.Type == "" {
		// Raw text on the agent's stdout is the coder's, never a system line.
		return []Line{{Lane: journal.Coder, Kind: coderstream.Unknown, Text: clip(s), Data: jsonOrNil(data)}}
	}
	switch l.Type {
	case "assistant", "user":
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(l.Message, &msg)
		var out []Line
		for _, b := range blocks(msg.Content) {
			switch b.Type {
			case "text":
				if strings.TrimSpace(b.Text) == "" {
					continue
				}
				lane := journal.Coder
				kind := coderstream.Text
				if l.Type == "user" {
					kind = coderstream.UserText
				}
				out = append(out, Line{Lane: lane, Kind: kind, Text: clip(b.Text), Data: data})
			// Sentinel's hooks see every tool call (PreToolUse asks the
			// broker, PostToolUse and PostToolUseFailure report how it
			// went), so the stream's copy of a call and its result is
			// journaled as a repeat that no lane shows: a lane shows each
			// call once, as in interactive mode.
			case "tool_use":
				out = append(out, Line{Lane: journal.Tool, Kind: coderstream.StreamCall, Text: clip(b.Name + " " + toolSummary(b.Input)), Data: data})
			case "tool_result":
				text := flatten(b.Content)
				if b.IsError {
					text = "error: " + text
				}
				res := approvals.ToolResult{Failed: b.IsError, ToolCallID: b.ToolUseID, Agent: jsonOrNil(data)}
				out = append(out, Line{Lane: journal.Tool, Kind: coderstream.StreamResult, Text: clip(text), Data: res.Data()})
			}
		}
		return out
	case "result":
		text := fmt.Sprintf("claude finished (%s, %d turns", l.Subtype, l.NumTurns)
		if len(l.Denials) > 0 {
			text += fmt.Sprintf(", %d tool calls denied", len(l.Denials))
		}
		text += ")"
		// The model's own words are quoted: a system line says what Sentinel
		// saw, and text in it from the coder must read as the coder's.
		var failure string
		if l.IsError {
			text = fmt.Sprintf("claude failed: %q", l.Result)
			failure = first(strings.TrimSpace(l.Result), errorsText(l.Errors), l.Subtype, "its session ended in an error")
		} else if l.Result != "" {
			text += fmt.Sprintf(", its last message: %q", l.Result)
		}
		return []Line{{Lane: journal.System, Kind: coderstream.Result, Text: clip(text), Data: data, Err: failure}}
	case "system":
		switch l.Subtype {
		case "init":
			return append([]Line{{Lane: journal.System, Kind: coderstream.Init, Text: "claude session started (model " + l.Model + ")", Data: data}},
				mcpFailures(l.MCPServers)...)
		case "permission_denied":
			var text string
			_ = json.Unmarshal(l.Message, &text)
			return []Line{{Lane: journal.Tool, Kind: coderstream.PermissionDenied, Text: clip(l.ToolName + " denied: " + text), Data: data}}
		}
		kind := coderstream.System
		if lifecycleSubtypes[l.Subtype] {
			kind = coderstream.Lifecycle
		}
		return []Line{{Lane: journal.System, Kind: kind, Text: "claude: " + l.Subtype, Data: data}}
	}
	return []Line{{Lane: journal.System, Kind: coderstream.Unknown, Text: "claude: " + l.Type, Data: data}}
}

// errorsText reads an error result's "errors": a list of strings (or of
// anything, kept as JSON).
func errorsText(raw json.RawMessage) string {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var out []string
	for _, e := range list {
		var s string
		if json.Unmarshal(e, &s) != nil {
			s = string(e)
		}
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "; ")
}

func first(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func blocks(raw json.RawMessage) []streamBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []streamBlock{{Type: "text", Text: s}}
	}
	var bs []streamBlock
	_ = json.Unmarshal(raw, &bs)
	return bs
}

// flatten reads tool_result content: a string or a list of text blocks.
func flatten(raw json.RawMessage) string {
	var parts []string
	for _, b := range blocks(raw) {
		if b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolSummary is the most telling field of a tool input: a Bash command, a
// file path, a URL; else the input JSON.
func toolSummary(in json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(in, &m) != nil {
		return string(in)
	}
	for _, k := range []string{"command", "file_path", "url", "pattern", "path"} {
		if v, ok := m[k].(string); ok {
			return v
		}
	}
	return string(in)
}

func clip(s string) string { return textsafe.ClipBytes(s, maxText) }

func jsonOrNil(b json.RawMessage) json.RawMessage {
	if json.Valid(b) {
		return b
	}
	return nil
}

// Decoder turns Claude Code's stream-json output, arriving in chunks of any
// size (a pty or pipe read), into Lines. It is not safe for concurrent use.
type Decoder struct {
	partial []byte
}

// maxLine bounds a line kept while waiting for its end; a longer one is
// decoded as it stands (the decoder never grows without bound).
const maxLine = 16 << 20

// Write feeds a chunk and returns the Lines of every line it completed.
func (d *Decoder) Write(chunk []byte) []Line {
	d.partial = append(d.partial, chunk...)
	var out []Line
	for {
		i := bytes.IndexByte(d.partial, '\n')
		if i < 0 {
			break
		}
		out = append(out, DecodeLine(d.partial[:i])...)
		d.partial = d.partial[i+1:]
	}
	if len(d.partial) > maxLine {
		out = append(out, d.Flush()...)
	}
	if len(d.partial) == 0 {
		d.partial = nil // let a large buffer go
	}
	return out
}

// Flush decodes whatever is left without a final newline (call it when the
// coder's output ends).
func (d *Decoder) Flush() []Line {
	rest := d.partial
	d.partial = nil
	return DecodeLine(rest)
}
