package fakeresponses

import (
	"encoding/json"
	"strings"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Request is one request the fake server received.
type Request struct {
	// Method, Path, Header, Body: the request as it arrived.
	fakehttp.Received

	Model        string
	Stream       bool
	Instructions string
	Input        []InputItem
	Tools        []Tool
}

// Tool is one tool a request offers.
type Tool struct {
	Type string // function, custom, web_search, …
	Name string
}

// InputItem is one item of a request's input, flattened: Text holds a
// message's text parts joined, or a tool output's text.
type InputItem struct {
	Type      string // message, function_call, function_call_output, custom_tool_call, custom_tool_call_output, reasoning, …
	Role      string // message
	Text      string
	CallID    string // calls and their outputs
	Name      string // calls
	Arguments string // function_call
	Raw       json.RawMessage
}

// IsOutput says whether the item is a tool's result sent back to the model.
func (i InputItem) IsOutput() bool { return strings.HasSuffix(i.Type, "_call_output") }

type wireRequest struct {
	Model        string            `json:"model"`
	Stream       bool              `json:"stream"`
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Tools        []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

type wireItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
}

func parseRequest(in fakehttp.Received) *Request {
	r := &Request{Received: in}
	body := in.Body
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	r.Model, r.Stream, r.Instructions = w.Model, w.Stream, w.Instructions
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, Tool{Type: t.Type, Name: t.Name})
	}
	for _, raw := range w.Input {
		var it wireItem
		_ = json.Unmarshal(raw, &it)
		in := InputItem{Type: it.Type, Role: it.Role, CallID: it.CallID, Name: it.Name, Arguments: it.Arguments, Raw: raw}
		switch {
		case it.Type == "message" || (it.Type == "" && it.Role != ""):
			in.Type = "message"
			in.Text = flatten(it.Content)
		case strings.HasSuffix(it.Type, "_call_output"):
			in.Text = flatten(it.Output)
		case it.Type == "custom_tool_call":
			in.Arguments = it.Input
		}
		r.Input = append(r.Input, in)
	}
	return r
}

// flatten reads content that is a string or a list of parts with text.
func flatten(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "\n")
}

// HasTool says whether the request offers a tool named name.
func (r *Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// ToolType is the type under which the request offers tool name ("" when it
// does not): "function" or "custom" for apply_patch, depending on the model.
func (r *Request) ToolType(name string) string {
	for _, t := range r.Tools {
		if t.Name == name {
			return t.Type
		}
	}
	return ""
}

// Outputs are every tool output in the request's input, in order.
func (r *Request) Outputs() []InputItem {
	var out []InputItem
	for _, it := range r.Input {
		if it.IsOutput() {
			out = append(out, it)
		}
	}
	return out
}

// Output is the output sent back for the call with callID, if any.
func (r *Request) Output(callID string) (InputItem, bool) {
	for _, it := range r.Input {
		if it.IsOutput() && it.CallID == callID {
			return it, true
		}
	}
	return InputItem{}, false
}

// LastOutputs are the tool outputs after the last assistant item (message
// or call) of the input: what the client sends in answer to the model's
// previous turn.
func (r *Request) LastOutputs() []InputItem {
	var out []InputItem
	for i := len(r.Input) - 1; i >= 0; i-- {
		it := r.Input[i]
		if it.IsOutput() {
			out = append([]InputItem{it}, out...)
			continue
		}
		if (it.Type == "message" && it.Role == "assistant") || strings.HasSuffix(it.Type, "_call") {
			break
		}
	}
	return out
}

// UserTexts are the texts of every user message in the input.
func (r *Request) UserTexts() []string {
	var out []string
	for _, it := range r.Input {
		if it.Type == "message" && it.Role == "user" {
			out = append(out, it.Text)
		}
	}
	return out
}

// AfterOutput matches a request that carries tool outputs answering the
// model's last turn.
func AfterOutput(r *Request) bool { return len(r.LastOutputs()) > 0 }
