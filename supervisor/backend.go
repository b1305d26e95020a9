package supervisor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Turn is one stateless question to a model: a system prompt, the user's
// text, and the JSON schema the answer must follow.
type Turn struct {
	Role       string         // what asks: judge, review, check (for the journal)
	System     string         // the system prompt
	User       string         // the question, with everything the model may use
	SchemaName string         // a short identifier for the schema (letters, _)
	Schema     map[string]any // JSON Schema of the answer object
}

// Usage is what a turn cost.
type Usage struct {
	InputTokens  int64 `json:"tokens_in"`
	OutputTokens int64 `json:"tokens_out"`
}

// Reply is a model's answer to a Turn: Text is the answer as JSON text.
type Reply struct {
	Text  string
	Usage Usage
}

// Backend asks a model one Turn. Implementations must honour ctx (a
// cancelled context ends the call) and report a refusal as an error.
type Backend interface {
	// Name says which backend and model, e.g. "anthropic claude-sonnet-5-5".
	Name() string
	Complete(ctx context.Context, t Turn) (Reply, error)
}

// Kind names a backend.
type Kind string

// The backends.
const (
	KindAnthropic Kind = "anthropic"  // Anthropic Messages API
	KindOpenAI    Kind = "openai"     // OpenAI-compatible chat completions
	KindClaudeCLI Kind = "claude-cli" // `claude -p`, signed in as the person
	KindCodexCLI  Kind = "codex-cli"  // `codex exec`, signed in as the person
)

// Kinds lists every backend kind, for flag help and errors.
var Kinds = []Kind{KindAnthropic, KindOpenAI, KindClaudeCLI, KindCodexCLI}

// Environment variables that configure the supervisor.
const (
	EnvBaseURL = "SENTINEL_SUPERVISOR_BASE_URL"
	EnvModel   = "SENTINEL_SUPERVISOR_MODEL"
	EnvAPIKey  = "SENTINEL_SUPERVISOR_API_KEY"
	EnvPrompts = "SENTINEL_PROMPTS_FILE"
)

// Default models when none is configured.
const (
	DefaultAnthropicModel = "claude-sonnet-5-5"
	DefaultOpenAIModel    = "gpt-5-mini"
)

// Config selects and configures a backend. A config file's [supervisor]
// section is read by internal/config as plain data; the command line turns
// it into a Config (this package imports no configuration loader).
type Config struct {
	Backend Kind   // anthropic, openai, claude-cli, codex-cli
	BaseURL string // empty: the API's public endpoint
	Model   string
	// APIKeyEnv names the environment variable holding the key, so keys
	// never sit in config files. Empty: SENTINEL_SUPERVISOR_API_KEY, then
	// ANTHROPIC_API_KEY or OPENAI_API_KEY.
	APIKeyEnv string
	// Timeout bounds one model turn ("30s"); empty means 60s.
	Timeout string
	// Prompts is a prompts file overriding the built-in prompt text.
	Prompts string
	// MaxTokens bounds the answer; 0 means 1024.
	MaxTokens int
	// Command is the CLI for claude-cli or codex-cli; empty means "claude"
	// or "codex" on PATH.
	Command string
	// Env is extra environment for the CLI backend (NAME=value), after the
	// caller's own.
	Env []string

	apiKey string // resolved by Resolve; never from a file
}

// Resolve fills what the environment gives: variables override the file's
// base URL and model, and the key is read from the environment only.
// getenv is os.Getenv in production.
func (c Config) Resolve(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	if v := getenv(EnvBaseURL); v != "" {
		c.BaseURL = v
	}
	if v := getenv(EnvModel); v != "" {
		c.Model = v
	}
	if c.Prompts == "" {
		c.Prompts = getenv(EnvPrompts)
	}
	return c.resolveKey(getenv)
}

// resolveKey reads the API key from the environment and fills the
// backend's default model.
func (c Config) resolveKey(getenv func(string) string) Config {
	switch {
	case c.APIKeyEnv != "":
		c.apiKey = getenv(c.APIKeyEnv)
	case getenv(EnvAPIKey) != "":
		c.apiKey = getenv(EnvAPIKey)
	case c.Backend == KindAnthropic:
		c.apiKey = getenv("ANTHROPIC_API_KEY")
	case c.Backend == KindOpenAI:
		c.apiKey = getenv("OPENAI_API_KEY")
	}
	if c.Model == "" {
		switch c.Backend {
		case KindAnthropic:
			c.Model = DefaultAnthropicModel
		case KindOpenAI:
			c.Model = DefaultOpenAIModel
		}
	}
	return c
}

// ForRole is the configuration of a role whose own section is own, over c,
// the resolved base configuration ([supervisor] with the environment and
// the flags). A role section naming a backend is the role's whole
// configuration: a model or URL meant for the base backend must not carry
// over to another, and the base URL and model variables set the base, not
// it. Otherwise each key own leaves unset is c's. The prompts file and the
// CLI environment are c's either way. The key is read from the
// environment, never from own.
func (c Config) ForRole(own Config, getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	if own.Backend != "" {
		own.Prompts, own.Env, own.apiKey = c.Prompts, c.Env, ""
		return own.resolveKey(getenv)
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&c.BaseURL, own.BaseURL)
	set(&c.Model, own.Model)
	set(&c.Timeout, own.Timeout)
	set(&c.Command, own.Command)
	if own.MaxTokens > 0 {
		c.MaxTokens = own.MaxTokens
	}
	if own.APIKeyEnv != "" {
		c.APIKeyEnv, c.apiKey = own.APIKeyEnv, ""
		c = c.resolveKey(getenv)
	}
	return c
}

// WithAPIKey sets the key directly (tests, or a caller with its own store).
func (c Config) WithAPIKey(key string) Config { c.apiKey = key; return c }

// TurnTimeout is the configured per-turn timeout (60s by default).
func (c Config) TurnTimeout() (time.Duration, error) {
	if c.Timeout == "" {
		return 60 * time.Second, nil
	}
	d, err := time.ParseDuration(c.Timeout)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("supervisor timeout %q: want a positive duration such as 30s or 2m", c.Timeout)
	}
	return d, nil
}

func (c Config) maxTokens() int64 {
	if c.MaxTokens > 0 {
		return int64(c.MaxTokens)
	}
	return 1024
}

// ParseKind checks a --supervisor value.
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("--supervisor %q: want one of %s (or leave it unset for no supervisor)", s, strings.Join(names, ", "))
}

// New builds the backend cfg names. Call Resolve first. A missing key for
// an API backend is an error saying which variable to set, except for an
// OpenAI-compatible server on a custom base URL (local servers need none).
func New(cfg Config) (Backend, error) {
	if _, err := cfg.TurnTimeout(); err != nil {
		return nil, err
	}
	switch cfg.Backend {
	case KindAnthropic:
		if cfg.apiKey == "" {
			return nil, errors.New("supervisor anthropic: no API key: set " + keyVar(cfg, "ANTHROPIC_API_KEY"))
		}
		return newAnthropic(cfg), nil
	case KindOpenAI:
		if cfg.apiKey == "" && cfg.BaseURL == "" {
			return nil, errors.New("supervisor openai: no API key: set " + keyVar(cfg, "OPENAI_API_KEY") +
				" (or " + EnvBaseURL + " for a local server that needs none)")
		}
		return newOpenAI(cfg), nil
	case KindClaudeCLI:
		return newClaudeCLI(cfg)
	case KindCodexCLI:
		return newCodexCLI(cfg)
	case "":
		return nil, errors.New("no supervisor backend configured: pass --supervisor anthropic|openai|claude-cli|codex-cli")
	}
	_, err := ParseKind(string(cfg.Backend))
	return nil, err
}

func keyVar(cfg Config, fallback string) string {
	if cfg.APIKeyEnv != "" {
		return cfg.APIKeyEnv
	}
	return EnvAPIKey + " or " + fallback
}
