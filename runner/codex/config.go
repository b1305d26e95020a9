package codex

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ProviderID is the model provider Sentinel writes into CODEX_HOME/config.toml.
const ProviderID = "sentinel"

// DefaultBaseURL is the OpenAI API, used when no base URL is configured.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultEnvKey is the variable holding the API key.
const DefaultEnvKey = "OPENAI_API_KEY"

// Provider is the model endpoint Codex talks to.
type Provider struct {
	BaseURL string // e.g. http://127.0.0.1:PORT/v1; empty: DefaultBaseURL
	EnvKey  string // the variable holding the key; empty: DefaultEnvKey
	Model   string // empty: Codex's default
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

// ConfigTOML is the config.toml Sentinel gives Codex: its provider, the
// approval policy and sandbox mode (see ApprovalPolicy), and no update
// checks, analytics, feedback or web search.
func ConfigTOML(p Provider) string {
	var b strings.Builder
	if p.Model != "" {
		fmt.Fprintf(&b, "model = %s\n", strconv.Quote(p.Model))
	}
	fmt.Fprintf(&b, "model_provider = %q\n", ProviderID)
	fmt.Fprintf(&b, "sandbox_mode = %q\n", SandboxMode)
	b.WriteString("check_for_update_on_startup = false\n")
	b.WriteString("web_search = \"disabled\"\n")
	b.WriteString("\n[features]\n")
	for _, f := range DisabledFeatures {
		fmt.Fprintf(&b, "%s = false\n", f)
	}
	b.WriteString("\n[agents]\nenabled = false\n")
	b.WriteString("\n[analytics]\nenabled = false\n")
	b.WriteString("\n[feedback]\nenabled = false\n")
	fmt.Fprintf(&b, "\n[model_providers.%s]\nname = \"Sentinel\"\nbase_url = %s\nenv_key = %s\nwire_api = \"responses\"\n",
		ProviderID, strconv.Quote(p.baseURL()), strconv.Quote(p.envKey()))
	return b.String()
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

// WriteConfig fills a fresh CODEX_HOME: config.toml and the exec-policy
// rules that send Codex's built-in "safe" commands to Sentinel too. home
// must be outside /tmp (Codex refuses to set up its helpers under a temp
// directory).
func WriteConfig(home string, p Provider) error {
	if err := os.MkdirAll(filepath.Join(home, "rules"), 0o700); err != nil {
		return fmt.Errorf("codex state dir %s: %w", home, err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(ConfigTOML(p)), 0o600); err != nil {
		return fmt.Errorf("codex config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(home, "rules", "sentinel.rules"), []byte(ExecPolicyRules()), 0o600); err != nil {
		return fmt.Errorf("codex rules: %w", err)
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
