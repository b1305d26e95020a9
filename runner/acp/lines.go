package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Line is one journal-ready event from the agent.
type Line struct {
	Lane journal.Lane
	Kind journal.Kind // one of coderstream's kinds
	Text string
	Data any
}

// lineWriter turns session/update notifications into Lines. Message chunks
// are joined into whole lines: an agent streams words, the lane shows lines.
type lineWriter struct {
	mu      sync.Mutex
	emit    func(Line)
	partial strings.Builder
	titles  map[sdk.ToolCallId]string
}

func newLineWriter(emit func(Line)) *lineWriter {
	return &lineWriter{emit: emit, titles: map[sdk.ToolCallId]string{}}
}

// update handles one notification.
func (w *lineWriter) update(u sdk.SessionUpdate) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			w.partial.WriteString(t.Text)
			w.flushLines(false)
		}
	case u.AgentThoughtChunk != nil:
		if t := u.AgentThoughtChunk.Content.Text; t != nil && strings.TrimSpace(t.Text) != "" {
			w.flushLines(true)
			w.emit(Line{Lane: journal.Coder, Kind: coderstream.Thinking, Text: "(thinking) " + oneLine(t.Text, 300)})
		}
	case u.Plan != nil:
		w.flushLines(true)
		var b []string
		for _, e := range u.Plan.Entries {
			b = append(b, fmt.Sprintf("[%s] %s", e.Status, e.Content))
		}
		w.emit(Line{Lane: journal.Coder, Kind: coderstream.Plan, Text: "plan: " + strings.Join(b, " · "), Data: u.Plan})
	case u.ToolCall != nil:
		w.flushLines(true)
		tc := u.ToolCall
		w.titles[tc.ToolCallId] = tc.Title
		w.emit(Line{Lane: journal.Tool, Kind: toolKindEvent(tc.Kind), Text: toolTitle(tc.Kind, tc.Title), Data: tc})
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		if tu.Title != nil {
			w.titles[tu.ToolCallId] = *tu.Title
		}
		if tu.Status == nil || (*tu.Status != sdk.ToolCallStatusCompleted && *tu.Status != sdk.ToolCallStatusFailed) {
			return
		}
		w.flushLines(true)
		text := string(*tu.Status)
		if out := contentText(tu.Content); out != "" {
			text += ": " + oneLine(out, 400)
		}
		w.emit(Line{Lane: journal.Tool, Kind: coderstream.Result, Text: text,
			Data: map[string]any{"tool_call_id": tu.ToolCallId, "title": w.titles[tu.ToolCallId], "status": *tu.Status, "output": contentText(tu.Content),
				"failed": *tu.Status == sdk.ToolCallStatusFailed}}) // how it went, as data (approvals.ToolOutcome)
	}
}

// noteCall shows an allowed call the agent announced only in its permission
// request (Gemini sends no tool_call update first), so the tool lane names
// what ran.
func (w *lineWriter) noteCall(tc sdk.ToolCallUpdate) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, seen := w.titles[tc.ToolCallId]; seen || tc.Title == nil {
		return
	}
	kind := sdk.ToolKindOther
	if tc.Kind != nil {
		kind = *tc.Kind
	}
	w.titles[tc.ToolCallId] = *tc.Title
	w.emit(Line{Lane: journal.Tool, Kind: toolKindEvent(kind), Text: toolTitle(kind, *tc.Title), Data: tc})
}

// flush emits what is left of the message being streamed.
func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLines(true)
}

func (w *lineWriter) flushLines(all bool) {
	s := w.partial.String()
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		if l := strings.TrimRight(s[:i], "\r"); strings.TrimSpace(l) != "" {
			w.emit(Line{Lane: journal.Coder, Kind: coderstream.Text, Text: l})
		}
		s = s[i+1:]
	}
	if all && strings.TrimSpace(s) != "" {
		w.emit(Line{Lane: journal.Coder, Kind: coderstream.Text, Text: s})
		s = ""
	}
	w.partial.Reset()
	w.partial.WriteString(s)
}

func toolKindEvent(k sdk.ToolKind) journal.Kind {
	if k == sdk.ToolKindExecute {
		return coderstream.Run
	}
	return coderstream.ToolCall
}

func toolTitle(k sdk.ToolKind, title string) string {
	if k == sdk.ToolKindExecute {
		return title
	}
	if k == "" {
		k = sdk.ToolKindOther
	}
	return string(k) + ": " + title
}

// contentText is the text of a tool call's content blocks (diffs as
// "diff <path>").
func contentText(cs []sdk.ToolCallContent) string {
	var parts []string
	for _, c := range cs {
		switch {
		case c.Content != nil && c.Content.Content.Text != nil:
			parts = append(parts, c.Content.Content.Text.Text)
		case c.Diff != nil:
			parts = append(parts, "diff "+c.Diff.Path)
		case c.Terminal != nil:
			parts = append(parts, "terminal "+c.Terminal.TerminalId)
		}
	}
	return strings.Join(parts, "\n")
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n] + "…"
	}
	return s
}

// rawJSON marshals v for a request's Input, or nil.
func rawJSON(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
