package fakemodel

import (
	"encoding/json"
	"strings"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Request is one request the fake server received, as parsed from its body.
type Request struct {
	// Method, Path, Header, Body: the request as it arrived.
	fakehttp.Received

	Model    string
	Stream   bool
	System   string // every system text joined with newlines
	Messages []Message
	Tools    []string // the names of the tools offered
}

// Message is one message of a request's conversation.
type Message struct {
	Role   string
	Blocks []ContentBlock
}

// ContentBlock is one block of a message, flattened: Text holds a text
// block's text or a tool_result's content (its text parts joined).
type ContentBlock struct {
	Type      string // text, tool_use, tool_result, …
	Text      string
	ToolUseID string // tool_result: the tool_use it answers; tool_use: its id
	Name      string // tool_use
	Input     json.RawMessage
	IsError   bool // tool_result
}

// ToolResult is a tool_result block sent back to the model.
type ToolResult struct {
	ToolUseID string
	Content   string
	IsError   bool
}

type wireRequest struct {
	Model    string          `json:"model"`
	Stream   bool            `json:"stream"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// parseRequest fills the parsed fields; a body that is not a Messages
// request leaves them empty (the raw body is still kept).
func parseRequest(in fakehttp.Received) *Request {
	req := &Request{Received: in}
	body := in.Body
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return req
	}
	req.Model, req.Stream = w.Model, w.Stream
	req.System = joinText(w.System)
	for _, t := range w.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	for _, m := range w.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Blocks: parseBlocks(m.Content)})
	}
	return req
}

// parseBlocks reads content that is either a string or a list of blocks.
func parseBlocks(raw json.RawMessage) []ContentBlock {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []ContentBlock{{Type: "text", Text: s}}
	}
	var ws []wireBlock
	if json.Unmarshal(raw, &ws) != nil {
		return nil
	}
	out := make([]ContentBlock, 0, len(ws))
	for _, w := range ws {
		b := ContentBlock{Type: w.Type, Text: w.Text, Name: w.Name, Input: w.Input, IsError: w.IsError}
		switch w.Type {
		case "tool_use":
			b.ToolUseID = w.ID
		case "tool_result":
			b.ToolUseID = w.ToolUseID
			b.Text = joinText(w.Content)
		}
		out = append(out, b)
	}
	return out
}

// joinText flattens a string or a list of text blocks.
func joinText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var ws []wireBlock
	if json.Unmarshal(raw, &ws) != nil {
		return ""
	}
	var parts []string
	for _, w := range ws {
		if w.Text != "" {
			parts = append(parts, w.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// LastToolResults are the tool_result blocks sent since the model's last
// turn: in the messages after the last assistant message. (Claude Code
// 2.1.332 may follow the user message holding the results with a
// role "system" message, so the very last message is not enough.)
func (r *Request) LastToolResults() []ToolResult {
	start := 0
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "assistant" {
			start = i + 1
			break
		}
	}
	var out []ToolResult
	for _, m := range r.Messages[start:] {
		for _, b := range m.Blocks {
			if b.Type == "tool_result" {
				out = append(out, ToolResult{ToolUseID: b.ToolUseID, Content: b.Text, IsError: b.IsError})
			}
		}
	}
	return out
}

// ToolResults are every tool_result block in the request's conversation.
func (r *Request) ToolResults() []ToolResult {
	var out []ToolResult
	for _, m := range r.Messages {
		for _, b := range m.Blocks {
			if b.Type == "tool_result" {
				out = append(out, ToolResult{ToolUseID: b.ToolUseID, Content: b.Text, IsError: b.IsError})
			}
		}
	}
	return out
}

// UserText is the text of every user message, joined with newlines
// (tool results excluded).
func (r *Request) UserText() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role != "user" {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// Contains says whether the raw body holds s.
func (r *Request) Contains(s string) bool { return strings.Contains(string(r.Body), s) }
