package supervisor

import (
	"context"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// openaiBackend asks any OpenAI-compatible chat completions server with a
// strict json_schema response format (OpenAI, Ollama, vLLM, llama.cpp
// server and LM Studio all accept it).
type openaiBackend struct {
	client openai.Client
	cfg    Config
}

func newOpenAI(cfg Config) *openaiBackend {
	key := cfg.apiKey
	if key == "" {
		key = "none" // local servers ignore it; the client insists on one
	}
	opts := []option.RequestOption{option.WithAPIKey(key), option.WithMaxRetries(1)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return &openaiBackend{client: openai.NewClient(opts...), cfg: cfg}
}

func (b *openaiBackend) Name() string { return "openai " + b.cfg.Model }

func (b *openaiBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	params := openai.ChatCompletionNewParams{
		Model: shared.ChatModel(b.cfg.Model),
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(t.System),
			openai.UserMessage(t.User),
		},
		MaxCompletionTokens: openai.Int(b.cfg.maxTokens()),
		ResponseFormat: openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   schemaName(t),
					Schema: t.Schema,
					Strict: openai.Bool(true),
				},
			},
		},
	}
	resp, err := b.client.Chat.Completions.New(ctx, params)
	if err != nil {
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
