package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// claudeCLIBackend asks `claude -p` — the Claude Code the person is already
// signed in to — so no extra account or key is needed. It runs with no
// tools, no MCP servers, no session saved and no project customisations
// (hooks, CLAUDE.md) in an empty directory, so the repository the coder works
// in cannot speak to the judge through its files.
type claudeCLIBackend struct {
	path string
	cfg  Config
}

func newClaudeCLI(cfg Config) (*claudeCLIBackend, error) {
	name := cfg.Command
	if name == "" {
		name = "claude"
	}
	path, err := personProgram(name)
	if err != nil {
		return nil, fmt.Errorf("supervisor claude-cli: %s not found on PATH: install Claude Code or pick another --supervisor", name)
	}
	return &claudeCLIBackend{path: path, cfg: cfg}, nil
}

func (b *claudeCLIBackend) Name() string {
	if b.cfg.Model != "" {
		return "claude-cli " + b.cfg.Model
	}
	return "claude-cli"
}

// cliResult is the part of `claude -p --output-format json` read here.
type cliResult struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	IsError          bool            `json:"is_error"`
	Result           string          `json:"result"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	Usage            struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
}

func (b *claudeCLIBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	schema, err := json.Marshal(t.Schema)
	if err != nil {
		return Reply{}, fmt.Errorf("claude-cli: schema: %w", err)
	}
	dir, err := os.MkdirTemp("", "sentinel-supervisor-")
	if err != nil {
		return Reply{}, fmt.Errorf("claude-cli: %w", err)
	}
	defer os.RemoveAll(dir)
	args := []string{"-p", "--output-format", "json", "--json-schema", string(schema),
		"--system-prompt", t.System, "--tools", "", "--strict-mcp-config", "--safe-mode",
		"--no-session-persistence"}
	if b.cfg.Model != "" {
		args = append(args, "--model", b.cfg.Model)
	}
	var env []string
	if len(b.cfg.Env) > 0 {
		env = append(os.Environ(), b.cfg.Env...)
	}
	out, stderr, runErr, err := cliCall{name: "claude-cli", path: b.path, args: args, dir: dir, env: env, stdin: t.User}.run(ctx)
	if err != nil {
		return Reply{}, err
	}
	var res cliResult
	if err := json.Unmarshal(bytes.TrimSpace(out), &res); err != nil {
		if runErr != nil {
			return Reply{}, fmt.Errorf("claude-cli: %v: %s", runErr, lastLine(stderr))
		}
		return Reply{}, fmt.Errorf("claude-cli: its output is not the expected JSON: %v", err)
	}
	r := Reply{Usage: Usage{InputTokens: res.Usage.InputTokens, OutputTokens: res.Usage.OutputTokens}}
	if res.IsError || runErr != nil {
		msg := res.Result
		if msg == "" {
			msg = res.Subtype
		}
		return r, fmt.Errorf("claude-cli: %s", lastLine(msg))
	}
	if len(res.StructuredOutput) > 0 && string(res.StructuredOutput) != "null" {
		r.Text = string(res.StructuredOutput)
		return r, nil
	}
	if res.Result == "" {
		return r, errors.New("claude-cli: empty answer")
	}
	r.Text = res.Result
	return r, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
