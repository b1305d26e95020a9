package supervisor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
)

// anthropicBackend asks the Anthropic Messages API, forcing one tool call
// whose input schema is the answer's: the tool's input is the answer.
type anthropicBackend struct {
	client anthropic.Client
	cfg    Config
}

func newAnthropic(cfg Config) *anthropicBackend {
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(), // only what Config says, never ambient ANTHROPIC_* settings
		option.WithAPIKey(cfg.apiKey),
		option.WithMaxRetries(1),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	return &anthropicBackend{client: anthropic.NewClient(opts...), cfg: cfg}
}

func (b *anthropicBackend) Name() string { return "anthropic " + b.cfg.Model }

func (b *anthropicBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	name := schemaName(t)
	props, required := schemaParts(t.Schema)
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(b.cfg.Model),
		MaxTokens: b.cfg.maxTokens(),
		System:    []anthropic.TextBlockParam{{Text: t.System}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(t.User))},
		Tools: []anthropic.ToolUnionParam{anthropic.ToolUnionParamOfTool(
			anthropic.ToolInputSchemaParam{Properties: props, Required: required}, name)},
		ToolChoice: anthropic.ToolChoiceParamOfTool(name),
	}
	msg, err := b.client.Messages.New(ctx, params)
	if err != nil {
		return Reply{}, fmt.Errorf("anthropic: %w", err)
	}
	r := Reply{Usage: Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens}}
	if msg.StopReason == anthropic.StopReasonRefusal {
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
