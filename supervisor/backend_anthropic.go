package supervisor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// anthropicBackend asks the Anthropic Messages API, forcing one tool call
// whose input schema is the answer's: the tool's input is the answer. Only
// what Config says is used, never ambient ANTHROPIC_* settings.
type anthropicBackend struct {
	url    string
	header http.Header
	cfg    Config
}

// anthropicBaseURL is Anthropic's public endpoint; anthropicVersion the
// Messages API version asked for.
const (
	anthropicBaseURL = "https://api.anthropic.com"
	anthropicVersion = "2023-06-01"
)

func newAnthropic(cfg Config) *anthropicBackend {
	base := cfg.BaseURL
	if base == "" {
		base = anthropicBaseURL
	}
	h := http.Header{}
	h.Set("X-Api-Key", cfg.apiKey)
	h.Set("Anthropic-Version", anthropicVersion)
	return &anthropicBackend{url: endpoint(base, "v1/messages"), header: h, cfg: cfg}
}

func (b *anthropicBackend) Name() string { return "anthropic " + b.cfg.Model }

// The Messages request and answer, as far as Sentinel uses them.
type (
	anthropicText struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	anthropicMessage struct {
		Role    string          `json:"role"`
		Content []anthropicText `json:"content"`
	}
	anthropicSchema struct {
		Type       string   `json:"type"`
		Properties any      `json:"properties,omitempty"`
		Required   []string `json:"required,omitempty"`
	}
	anthropicTool struct {
		Name        string          `json:"name"`
		InputSchema anthropicSchema `json:"input_schema"`
	}
	anthropicRequest struct {
		Model      string             `json:"model"`
		MaxTokens  int64              `json:"max_tokens"`
		System     []anthropicText    `json:"system"`
		Messages   []anthropicMessage `json:"messages"`
		Tools      []anthropicTool    `json:"tools"`
		ToolChoice struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"tool_choice"`
	}
	anthropicResponse struct {
		Content []struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
		Usage      struct {
			InputTokens  int64 `json:"input_tokens"`
			OutputTokens int64 `json:"output_tokens"`
		} `json:"usage"`
	}
)

func (b *anthropicBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	name := schemaName(t)
	props, required := schemaParts(t.Schema)
	req := anthropicRequest{
		Model:     b.cfg.Model,
		MaxTokens: b.cfg.maxTokens(),
		System:    []anthropicText{{"text", t.System}},
		Messages:  []anthropicMessage{{"user", []anthropicText{{"text", t.User}}}},
		Tools:     []anthropicTool{{name, anthropicSchema{"object", props, required}}},
	}
	req.ToolChoice.Type, req.ToolChoice.Name = "tool", name
	var msg anthropicResponse
	if err := postJSON(ctx, b.url, b.header, req, &msg); err != nil {
		return Reply{}, fmt.Errorf("anthropic: %w", err)
	}
	r := Reply{Usage: Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens}}
	if msg.StopReason == "refusal" {
		return r, errors.New("anthropic: the model refused to answer")
	}
	var texts []string
	for _, c := range msg.Content {
		switch c.Type {
		case "tool_use":
			if c.Name == name {
				r.Text = string(c.Input)
				return r, nil
			}
		case "text":
			texts = append(texts, c.Text)
		}
	}
	// No forced tool call (a gateway that ignores tool_choice): the text
	// may still hold the JSON; the caller's parser decides.
	r.Text = strings.Join(texts, "\n")
	return r, nil
}

// schemaName is the tool / schema name for t.
func schemaName(t Turn) string {
	if t.SchemaName != "" {
		return t.SchemaName
	}
	return "answer"
}

// schemaParts splits an object schema into its properties and required list.
func schemaParts(s map[string]any) (any, []string) {
	var req []string
	switch r := s["required"].(type) {
	case []string:
		req = r
	case []any:
		for _, v := range r {
			if str, ok := v.(string); ok {
				req = append(req, str)
			}
		}
	}
	return s["properties"], req
}
