package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// ProviderID is the model provider Sentinel writes into CODEX_HOME/config.toml.
const ProviderID = "sentinel"

// DefaultBaseURL is the OpenAI API, used when no base URL is configured.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultEnvKey is the variable holding the API key.
const DefaultEnvKey = "OPENAI_API_KEY"

// Provider is the model endpoint Sentinel sets up when the person's own
// provider is not used (see NewPlan).
type Provider struct {
	BaseURL string // e.g. http://127.0.0.1:PORT/v1; empty: DefaultBaseURL
	EnvKey  string // the variable holding the key; empty: DefaultEnvKey
	Model   string // empty: the person's, else Codex's default
	// FromEnv says OPENAI_API_KEY or OPENAI_BASE_URL is set: it is used
	// rather than the person's auth.json sign-in.
	FromEnv bool
}

func (p Provider) baseURL() string {
	if p.BaseURL == "" {
		return DefaultBaseURL
	}
	return p.BaseURL
}

func (p Provider) envKey() string {
	if p.EnvKey == "" {
		return DefaultEnvKey
	}
	return p.EnvKey
}

// PlanFor is the plan for p alone: no person's setup, no instructions.
func PlanFor(p Provider) Plan {
	p.FromEnv = true
	pl, _ := NewPlan(p, nil, "") // without a person it cannot fail
	return pl
}

// ConfigTOML is the run's config.toml for pl (Plan.Config).
func ConfigTOML(pl Plan) (string, error) {
	var b strings.Builder
	b.WriteString("# Written by Sentinel for one run; the person's own config.toml is never used or changed.\n")
	if err := toml.NewEncoder(&b).Encode(pl.Config()); err != nil {
		return "", fmt.Errorf("codex config: %w", err)
	}
	return b.String(), nil
}

// DisabledFeatures are Codex features Sentinel turns off (names from
// `codex features list`, 0.171.0). hooks: hook commands from config layers
// (a repository's .codex/ included) would run without any approval.
// plugins, remote_plugin, apps, tool_suggest, skill_mcp_dependency_install:
// they sync from github.com and chatgpt.com at start (seen in codex's log
// with the fake model) and install things. Subagents are off too
// ([agents] enabled = false): they are not tested under Sentinel yet. image_generation, browser_use, computer_use,
// in_app_browser: not coding tools, and not routed through approvals.
var DisabledFeatures = []string{"hooks", "plugins", "remote_plugin", "apps", "tool_suggest",
	"skill_mcp_dependency_install", "image_generation", "browser_use", "computer_use",
	"in_app_browser", "in_app_updates", "daemon_auto_start"}

// WriteConfig fills a fresh CODEX_HOME: config.toml (ConfigTOML), the
// exec-policy rules that send Codex's built-in "safe" commands to Sentinel
// too, and copies of the person's auth.json (when pl.Auth) and global
// AGENTS.md files from person (nil: none). home must be outside /tmp (Codex
// refuses to set up its helpers under a temp directory).
func WriteConfig(home string, pl Plan, person *Person) error {
	if err := os.MkdirAll(filepath.Join(home, "rules"), 0o700); err != nil {
		return fmt.Errorf("codex state dir %s: %w", home, err)
	}
	text, err := ConfigTOML(pl)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(text), 0o600); err != nil {
		return fmt.Errorf("codex config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(home, "rules", "sentinel.rules"), []byte(ExecPolicyRules()), 0o600); err != nil {
		return fmt.Errorf("codex rules: %w", err)
	}
	if person == nil || person.Dir == "" {
		return nil
	}
	files := instructionFiles
	if pl.Auth {
		files = append([]string{"auth.json"}, files...)
	}
	for _, f := range files {
		if err := agentutil.CopyPrivate(filepath.Join(person.Dir, f), filepath.Join(home, f)); err != nil {
			return fmt.Errorf("codex: copy your %s into the run: %w", filepath.Join(person.Dir, f), err)
		}
	}
	return nil
}

// safeCommands are the programs Codex may run without asking under the
// "untrusted" policy because it considers them read-only.
var safeCommands = []string{"cat", "cd", "cut", "echo", "expr", "false", "find", "git", "grep", "head", "id", "ls",
	"nl", "paste", "pwd", "rev", "rg", "sed", "seq", "sort", "stat", "tail", "tr", "true", "uname", "uniq", "wc",
	"which", "whoami", "base64", "numfmt", "tac", "date", "printf", "diff", "file", "tree", "du", "df", "env",
	"printenv", "basename", "dirname", "realpath", "readlink", "test", "["}

// ExecPolicyRules makes every one of safeCommands a "prompt".
func ExecPolicyRules() string {
	var b strings.Builder
	b.WriteString("# Written by Sentinel: every command is decided by Sentinel's broker.\n")
	for _, c := range safeCommands {
		fmt.Fprintf(&b, "prefix_rule(pattern = [%s], decision = \"prompt\")\n", strconv.Quote(c))
	}
	return b.String()
}
