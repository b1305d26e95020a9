package fakegemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/fakehttp"
)

// Request is one request the fake server received.
type Request struct {
	// Method, Path, Header, Body: the request as it arrived.
	fakehttp.Received

	Model  string // from the path: models/{Model}:{Action}
	Action string // streamGenerateContent, generateContent, countTokens, …
	// System is the systemInstruction's text parts joined.
	System   string
	Contents []Content
	Tools    []string // names of the function declarations offered
	// Schema is generationConfig.responseJsonSchema (or responseSchema):
	// set when the client wants a JSON answer (routing, next-speaker and
	// loop-detection checks).
	Schema json.RawMessage
}

// Content is one turn of the conversation the client sent.
type Content struct {
	Role  string // user or model
	Parts []Part
}

// Part is one part of a content: text, a function call the model made, or
// a function response the client sends back.
type Part struct {
	Text     string
	Thought  bool
	Call     *Call
	Response *FunctionResponse
	Raw      json.RawMessage
}

// Call is a functionCall part of the history.
type Call struct {
	ID   string         `json:"id"`
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// FunctionResponse is a tool's result sent back to the model. gemini-cli
// sends {"output": "..."} on success and {"error": "..."} when the tool
// failed or was refused.
type FunctionResponse struct {
	ID       string         `json:"id"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
}

// Output is the response's output text, or its error text prefixed with
// "error: " when it has no output.
func (f FunctionResponse) Output() string {
	if s, ok := f.Response["output"].(string); ok {
		return s
	}
	if e, ok := f.Response["error"]; ok {
		if s, ok := e.(string); ok {
			return "error: " + s
		}
		b, _ := json.Marshal(e)
		return "error: " + string(b)
	}
	b, _ := json.Marshal(f.Response)
	return string(b)
}

// IsError says whether the response reports an error (a failed or refused
// call).
func (f FunctionResponse) IsError() bool {
	_, ok := f.Response["error"]
	return ok
}

type wireRequest struct {
	Contents []struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"contents"`
	SystemInstruction *struct {
		Parts []struct {
			Text string `json:"text"`
		} `json:"parts"`
	} `json:"systemInstruction"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
	} `json:"generationConfig"`
}

type wirePart struct {
	Text             string            `json:"text"`
	Thought          bool              `json:"thought"`
	FunctionCall     *Call             `json:"functionCall"`
	FunctionResponse *FunctionResponse `json:"functionResponse"`
}

func parseRequest(in fakehttp.Received) *Request {
	r := &Request{Received: in}
	body := in.Body
	if i := strings.LastIndex(r.Path, "/models/"); i >= 0 {
		r.Model, r.Action, _ = strings.Cut(r.Path[i+len("/models/"):], ":")
	}
	var w wireRequest
	if json.Unmarshal(body, &w) != nil {
		return r
	}
	if w.SystemInstruction != nil {
		var texts []string
		for _, p := range w.SystemInstruction.Parts {
			texts = append(texts, p.Text)
		}
		r.System = strings.Join(texts, "\n")
	}
	for _, t := range w.Tools {
		for _, f := range t.FunctionDeclarations {
			r.Tools = append(r.Tools, f.Name)
		}
	}
	r.Schema = w.GenerationConfig.ResponseJSONSchema
	if len(r.Schema) == 0 || string(r.Schema) == "null" {
		r.Schema = w.GenerationConfig.ResponseSchema
	}
	if string(r.Schema) == "null" {
		r.Schema = nil
	}
	for _, c := range w.Contents {
		content := Content{Role: c.Role}
		for _, raw := range c.Parts {
			var p wirePart
			_ = json.Unmarshal(raw, &p)
			content.Parts = append(content.Parts, Part{Text: p.Text, Thought: p.Thought,
				Call: p.FunctionCall, Response: p.FunctionResponse, Raw: raw})
		}
		r.Contents = append(r.Contents, content)
	}
	return r
}

// HasTool says whether the request offers a function named name.
func (r *Request) HasTool(name string) bool {
	for _, t := range r.Tools {
		if t == name {
			return true
		}
	}
	return false
}

// FunctionResponses are every function response in the request, in order.
func (r *Request) FunctionResponses() []FunctionResponse {
	var out []FunctionResponse
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if p.Response != nil {
				out = append(out, *p.Response)
			}
		}
	}
	return out
}

// LastFunctionResponses are the function responses after the model's last
// content: what the client sends in answer to the model's previous turn.
func (r *Request) LastFunctionResponses() []FunctionResponse {
	var out []FunctionResponse
	for i := len(r.Contents) - 1; i >= 0 && r.Contents[i].Role != "model"; i-- {
		var here []FunctionResponse
		for _, p := range r.Contents[i].Parts {
			if p.Response != nil {
				here = append(here, *p.Response)
			}
		}
		out = append(here, out...)
	}
	return out
}

// FunctionResponse is the last function response for the tool name.
func (r *Request) FunctionResponse(name string) (FunctionResponse, bool) {
	all := r.FunctionResponses()
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Name == name {
			return all[i], true
		}
	}
	return FunctionResponse{}, false
}

// UserTexts are the text parts of every user content, in order.
func (r *Request) UserTexts() []string {
	var out []string
	for _, c := range r.Contents {
		if c.Role != "user" {
			continue
		}
		for _, p := range c.Parts {
			if p.Text != "" {
				out = append(out, p.Text)
			}
		}
	}
	return out
}

// String is a one-line summary for test failure messages.
func (r *Request) String() string {
	return fmt.Sprintf("%s %s (%d contents, %d tools, schema %t)", r.Method, r.Path, len(r.Contents), len(r.Tools), len(r.Schema) > 0)
}
