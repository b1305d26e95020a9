package supervisor

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
)

// openaiBackend asks any OpenAI-compatible chat completions server with a
// strict json_schema response format (OpenAI, Ollama, vLLM, llama.cpp
// server and LM Studio all accept it).
type openaiBackend struct {
	url    string
	header http.Header
	cfg    Config
}

// openaiBaseURL is OpenAI's public endpoint.
const openaiBaseURL = "https://api.openai.com/v1"

func newOpenAI(cfg Config) *openaiBackend {
	key := cfg.apiKey
	if key == "" {
		key = "none" // local servers ignore it
	}
	base := cfg.BaseURL
	if base == "" {
		// as OpenAI's own client does
		if base = os.Getenv("OPENAI_BASE_URL"); base == "" {
			base = openaiBaseURL
		}
	}
	h := http.Header{}
	h.Set("Authorization", "Bearer "+key)
	return &openaiBackend{url: endpoint(base, "chat/completions"), header: h, cfg: cfg}
}

func (b *openaiBackend) Name() string { return "openai " + b.cfg.Model }

// The chat completions request and answer, as far as Sentinel uses them.
type (
	openaiMessage struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	openaiRequest struct {
		Model               string          `json:"model"`
		Messages            []openaiMessage `json:"messages"`
		MaxCompletionTokens int64           `json:"max_completion_tokens"`
		ResponseFormat      struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Schema map[string]any `json:"schema"`
				Strict bool           `json:"strict"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	openaiResponse struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
				Refusal string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
	}
)

func (b *openaiBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	req := openaiRequest{
		Model:               b.cfg.Model,
		Messages:            []openaiMessage{{"system", t.System}, {"user", t.User}},
		MaxCompletionTokens: b.cfg.maxTokens(),
	}
	req.ResponseFormat.Type = "json_schema"
	req.ResponseFormat.JSONSchema.Name = schemaName(t)
	req.ResponseFormat.JSONSchema.Schema = t.Schema
	req.ResponseFormat.JSONSchema.Strict = true
	var resp openaiResponse
	if err := postJSON(ctx, b.url, b.header, req, &resp); err != nil {
		return Reply{}, fmt.Errorf("openai: %w", err)
	}
	r := Reply{Usage: Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens}}
	if len(resp.Choices) == 0 {
		return r, errors.New("openai: the answer had no choices")
	}
	m := resp.Choices[0].Message
	if m.Refusal != "" {
		return r, fmt.Errorf("openai: the model refused: %s", m.Refusal)
	}
	r.Text = m.Content
	return r, nil
}
