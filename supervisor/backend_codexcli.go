package supervisor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/sentinelhq/sentinel/internal/tomlquote"
)

// codexCLIBackend asks `codex exec` — the Codex the person is already signed
// in to — so no extra account or key is needed. Each turn is one ephemeral
// thread in an empty directory, with the judge's system prompt in place of
// Codex's own (model_instructions_file), the answer held to the turn's schema
// (--output-schema), a read-only sandbox, no approvals, no shell tool, no
// hooks, no notify program, none of the person's MCP servers, no skills and
// no project instructions, so neither the repository the coder works in nor
// a tool call can speak to the judge. The person's config.toml is still
// read: it holds their provider, model and how their sign-in is stored.
//
// Not excluded: $CODEX_HOME/AGENTS.md, the person's own global instructions.
// Codex 0.171.0 has no setting to skip it, and pointing CODEX_HOME elsewhere
// would lose the sign-in (auth.json lives there and its tokens rotate).
type codexCLIBackend struct {
	path string
	cfg  Config
}

func newCodexCLI(cfg Config) (*codexCLIBackend, error) {
	name := cfg.Command
	if name == "" {
		name = "codex"
	}
	path, err := personProgram(name)
	if err != nil {
		return nil, fmt.Errorf("supervisor codex-cli: %s not found on PATH: install Codex (npm i -g @openai/codex) or pick another --supervisor", name)
	}
	return &codexCLIBackend{path: path, cfg: cfg}, nil
}

func (b *codexCLIBackend) Name() string {
	if b.cfg.Model != "" {
		return "codex-cli " + b.cfg.Model
	}
	return "codex-cli"
}

// codexToolsOff must be off for a judge turn: they give the model a shell.
// An unknown name makes codex exit, so a renamed feature fails closed.
var codexToolsOff = []string{"shell_tool", "unified_exec"}

// codexFeaturesOff are the other Codex features (names from `codex features
// list`, 0.171.0) a judge turn has no use for: tools, hooks, memories, what
// syncs or installs at start, and endless reconnecting (a server that is
// down should fail the turn, not use up its timeout). Set with -c, which
// only warns on a name a later version no longer knows.
var codexFeaturesOff = []string{"hooks", "memories", "goals", "view_image", "apps", "plugins",
	"remote_plugin", "tool_suggest", "skill_search", "skill_mcp_dependency_install", "multi_agent",
	"image_generation", "browser_use", "computer_use", "in_app_browser", "unbounded_connection_retries"}

// codexSettings are the -c overrides of every judge turn: no approvals, and
// no text in the prompt but the judge's own (no project docs, skills,
// environment, permission or collaboration-mode blocks).
var codexSettings = []string{
	`approval_policy="never"`, `web_search="disabled"`, `notify=[]`, `project_doc_max_bytes=0`,
	`skills.include_instructions=false`, `skills.bundled.enabled=false`,
	`include_environment_context=false`, `include_permissions_instructions=false`,
	`include_apps_instructions=false`, `include_collaboration_mode_instructions=false`,
}

// args is the codex command line for one turn; dir holds the turn's files.
func (b *codexCLIBackend) args(dir, system string, mcpServers []string) []string {
	args := []string{"exec", "--json", "--skip-git-repo-check", "--ephemeral", "--ignore-rules",
		"-s", "read-only", "--output-schema", filepath.Join(dir, "schema.json")}
	for _, f := range codexToolsOff {
		args = append(args, "--disable", f)
	}
	for _, f := range codexFeaturesOff {
		args = append(args, "-c", "features."+f+"=false")
	}
	for _, s := range codexSettings {
		args = append(args, "-c", s)
	}
	if system != "" {
		args = append(args, "-c", "model_instructions_file="+tomlquote.String(filepath.Join(dir, "system.md")))
	}
	for _, name := range mcpServers {
		args = append(args, "-c", "mcp_servers."+name+".enabled=false")
	}
	if b.cfg.Model != "" {
		args = append(args, "-m", b.cfg.Model)
	}
	return append(args, "-") // the prompt is on stdin
}

func (b *codexCLIBackend) Complete(ctx context.Context, t Turn) (Reply, error) {
	schema, err := json.Marshal(t.Schema)
	if err != nil {
		return Reply{}, fmt.Errorf("codex-cli: schema: %w", err)
	}
	var env []string
	if len(b.cfg.Env) > 0 {
		env = append(os.Environ(), b.cfg.Env...)
	}
	mcpServers, err := codexMCPServers(env)
	if err != nil {
		return Reply{}, err
	}
	dir, err := os.MkdirTemp("", "sentinel-supervisor-")
	if err != nil {
		return Reply{}, fmt.Errorf("codex-cli: %w", err)
	}
	defer os.RemoveAll(dir)
	cwd := filepath.Join(dir, "cwd") // empty: nothing in it can reach the judge
	if err := os.Mkdir(cwd, 0o700); err != nil {
		return Reply{}, fmt.Errorf("codex-cli: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schema.json"), schema, 0o600); err != nil {
		return Reply{}, fmt.Errorf("codex-cli: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "system.md"), []byte(t.System), 0o600); err != nil {
		return Reply{}, fmt.Errorf("codex-cli: %w", err)
	}
	out, stderr, runErr, err := cliCall{name: "codex-cli", path: b.path, args: b.args(dir, t.System, mcpServers),
		dir: cwd, env: env, stdin: t.User}.run(ctx)
	if err != nil {
		return Reply{}, err
	}
	return readCodexEvents(out, runErr, stderr)
}

// codexEvent is the part of a `codex exec --json` line read here.
type codexEvent struct {
	Type    string `json:"type"`
	Message string `json:"message"` // error
	Item    struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"` // item.started, item.completed
	Error struct {
		Message string `json:"message"`
	} `json:"error"` // turn.failed
	Usage struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"` // turn.completed
}

// readCodexEvents turns codex's JSONL into a Reply. Only a completed turn
// whose last agent message is not empty is an answer; a failed turn, a
// tool call, an exit status or output that is not JSONL is an error.
// "error" events alone are not: codex reports its retries with them.
func readCodexEvents(out []byte, runErr error, stderr string) (Reply, error) {
	var r Reply
	var answer, failed, lastErr, tool string
	completed := false
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var ev codexEvent
		err := dec.Decode(&ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			if runErr != nil {
				return r, fmt.Errorf("codex-cli: %v: %s", runErr, codexStderrError(stderr))
			}
			return r, fmt.Errorf("codex-cli: its output is not the expected JSON lines: %v", err)
		}
		switch ev.Type {
		case "item.started", "item.completed":
			switch ev.Item.Type {
			case "agent_message":
				if ev.Type == "item.completed" {
					answer = ev.Item.Text
				}
			case "reasoning", "error": // an item error is a warning (e.g. an ignored setting)
			default:
				tool = ev.Item.Type
			}
		case "turn.completed":
			completed = true
			r.Usage.InputTokens += ev.Usage.InputTokens
			r.Usage.OutputTokens += ev.Usage.OutputTokens
		case "turn.failed":
			failed = ev.Error.Message
		case "error":
			lastErr = ev.Message
		}
	}
	switch {
	case failed != "":
		return r, fmt.Errorf("codex-cli: the turn failed: %s", lastLine(failed))
	case runErr != nil:
		msg := lastErr
		if msg == "" {
			msg = codexStderrError(stderr)
		}
		return r, fmt.Errorf("codex-cli: %v: %s", runErr, lastLine(msg))
	case !completed:
		if lastErr != "" {
			return r, fmt.Errorf("codex-cli: the turn did not complete: %s", lastLine(lastErr))
		}
		return r, errors.New("codex-cli: the turn did not complete")
	case tool != "":
		return r, fmt.Errorf("codex-cli: the model used a tool (%s); a judge turn may not", tool)
	case strings.TrimSpace(answer) == "":
		return r, errors.New("codex-cli: empty answer")
	}
	r.Text = answer
	return r, nil
}

// codexStderrError is codex's own "Error: …" line, else stderr's last line.
func codexStderrError(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "Error: ") {
			return l
		}
	}
	return lastLine(stderr)
}

var mcpServerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// codexMCPServers names the MCP servers in the person's config.toml, so a
// judge turn can switch each off (a -c override cannot empty the table).
// env is the child's environment (nil: this process's).
func codexMCPServers(env []string) ([]string, error) {
	home := lookupEnv(env, "CODEX_HOME")
	if home == "" {
		h := lookupEnv(env, "HOME")
		if h == "" {
			return nil, nil
		}
		home = filepath.Join(h, ".codex")
	}
	path := filepath.Join(home, "config.toml")
	var cfg struct {
		MCPServers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	if _, err := toml.DecodeFile(path, &cfg); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("codex-cli: read %s to switch off its MCP servers: %w", path, err)
	}
	var names []string
	for name := range cfg.MCPServers {
		if !mcpServerName().MatchString(name) {
			return nil, fmt.Errorf("codex-cli: MCP server %q in %s: cannot switch it off for a judge turn; rename it (letters, digits, _ and -)", name, path)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// lookupEnv is the last value of key in env (nil env: os.Getenv).
func lookupEnv(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}
