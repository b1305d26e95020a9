package codex

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Line is one thing the app-server said, ready for the journal: agent
// messages on the coder lane, commands and file changes on the tool lane,
// the thread's start, its turns and errors on the system lane.
type Line struct {
	Lane journal.Lane
	Kind journal.Kind // one of coderstream's kinds
	Text string
	Data json.RawMessage // the notification's params as Codex sent them
}

// item is the part of a ThreadItem the decoder and the approval routing read.
type item struct {
	Type             string       `json:"type"`
	ID               string       `json:"id"`
	Text             string       `json:"text"`
	Command          string       `json:"command"`
	Cwd              string       `json:"cwd"`
	Status           string       `json:"status"`
	ExitCode         *int         `json:"exitCode"`
	AggregatedOutput *string      `json:"aggregatedOutput"`
	Changes          []fileChange `json:"changes"`
	Server           string       `json:"server"`
	Tool             string       `json:"tool"`
	Query            string       `json:"query"`
}

type fileChange struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
	Kind struct {
		Type     string  `json:"type"`
		MovePath *string `json:"move_path"`
	} `json:"kind"`
}

// DecodeNotification turns one app-server notification into journal-ready
// lines. Streaming deltas, token counts and other bookkeeping give nothing:
// the completed item carries the whole text.
func DecodeNotification(method string, params json.RawMessage) []Line {
	line := func(lane journal.Lane, kind journal.Kind, text string) []Line {
		return []Line{{Lane: lane, Kind: kind, Text: clip(text), Data: jsonOrNil(params)}}
	}
	switch method {
	case "thread/started":
		var p struct {
			Thread struct {
				ID string `json:"id"`
			} `json:"thread"`
		}
		_ = json.Unmarshal(params, &p)
		return line(journal.System, coderstream.Init, "codex thread started ("+p.Thread.ID+")")
	case "turn/started":
		return line(journal.System, coderstream.TurnStart, "codex turn started")
	case "turn/completed":
		var p struct {
			Turn struct {
				Status string `json:"status"`
				Error  *struct {
					Message string `json:"message"`
				} `json:"error"`
			} `json:"turn"`
		}
		_ = json.Unmarshal(params, &p)
		text := "codex finished the turn (" + p.Turn.Status + ")"
		if p.Turn.Error != nil && p.Turn.Error.Message != "" {
			text = "codex turn " + p.Turn.Status + ": " + p.Turn.Error.Message
		}
		return line(journal.System, coderstream.Result, text)
	case "error":
		var p struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
			WillRetry bool `json:"willRetry"`
		}
		_ = json.Unmarshal(params, &p)
		text := "codex error: " + p.Error.Message
		if p.WillRetry {
			text += " (retrying)"
		}
		return line(journal.System, coderstream.Error, text)
	case "warning", "configWarning", "deprecationNotice", "guardianWarning":
		var p struct {
			Message string `json:"message"`
			Summary string `json:"summary"`
		}
		_ = json.Unmarshal(params, &p)
		text := p.Message
		if text == "" {
			text = p.Summary
		}
		if text == "" {
			text = string(params)
		}
		return line(journal.System, coderstream.Warning, "codex: "+text)
	case "item/started", "item/completed":
		var p struct {
			Item item `json:"item"`
		}
		if json.Unmarshal(params, &p) != nil {
			return nil
		}
		return decodeItem(method == "item/started", p.Item, params)
	case "sentinel/unreadable":
		var s string
		_ = json.Unmarshal(params, &s)
		return []Line{{Lane: journal.System, Kind: coderstream.Unknown, Text: clip("codex: " + s)}}
	}
	return nil
}

func decodeItem(started bool, it item, params json.RawMessage) []Line {
	data := jsonOrNil(params)
	mk := func(lane journal.Lane, kind journal.Kind, text string) []Line {
		d := data
		if kind == coderstream.ToolResult { // how the call went, as data (approvals.ToolOutcome)
			d = approvals.ToolResult{Failed: it.Status == "failed" || (it.ExitCode != nil && *it.ExitCode != 0),
				ExitCode: it.ExitCode, ToolCallID: it.ID, Agent: data}.Data()
		}
		return []Line{{Lane: lane, Kind: kind, Text: clip(text), Data: d}}
	}
	switch it.Type {
	case "agentMessage":
		if started || strings.TrimSpace(it.Text) == "" {
			return nil
		}
		return mk(journal.Coder, coderstream.Text, it.Text)
	case "commandExecution":
		if started {
			return mk(journal.Tool, coderstream.ToolCall, "$ "+it.Command)
		}
		text := it.Command + " → " + it.Status
		if it.ExitCode != nil {
			text = fmt.Sprintf("%s → exit %d", it.Command, *it.ExitCode)
		}
		if it.AggregatedOutput != nil && strings.TrimSpace(*it.AggregatedOutput) != "" {
			text += "\n" + strings.TrimRight(*it.AggregatedOutput, "\n")
		}
		return mk(journal.Tool, coderstream.ToolResult, text)
	case "fileChange":
		paths := changePaths(it.Changes)
		if started {
			return mk(journal.Tool, coderstream.ToolCall, "edit "+strings.Join(paths, ", "))
		}
		return mk(journal.Tool, coderstream.ToolResult, "edit "+strings.Join(paths, ", ")+" → "+it.Status)
	case "mcpToolCall":
		if started {
			return mk(journal.Tool, coderstream.ToolCall, "mcp "+it.Server+"/"+it.Tool)
		}
		return mk(journal.Tool, coderstream.ToolResult, "mcp "+it.Server+"/"+it.Tool+" → "+it.Status)
	case "dynamicToolCall":
		if started {
			return mk(journal.Tool, coderstream.ToolCall, it.Tool)
		}
		return mk(journal.Tool, coderstream.ToolResult, it.Tool+" → "+it.Status)
	case "webSearch":
		if started {
			return nil
		}
		return mk(journal.Tool, coderstream.ToolCall, "web search: "+it.Query)
	}
	return nil
}

func changePaths(cs []fileChange) []string {
	var out []string
	for _, c := range cs {
		p := c.Path
		if c.Kind.MovePath != nil && *c.Kind.MovePath != "" {
			p += " → " + *c.Kind.MovePath
		}
		out = append(out, p)
	}
	return out
}

// maxText bounds one line's text; the whole notification stays in Data.
const maxText = 4000

func clip(s string) string { return textsafe.ClipBytes(s, maxText) }

func jsonOrNil(b json.RawMessage) json.RawMessage {
	if len(b) > 0 && json.Valid(b) {
		return b
	}
	return nil
}
