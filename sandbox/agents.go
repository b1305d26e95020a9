package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/BurntSushi/toml"
	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// AgentNeeds is what a known coding agent needs inside the sandbox beyond
// the default profile: copies of the person's login and settings, and the
// environment variables that carry its API keys and endpoints.
//
// The agent's real state in the person's home is never writable: its
// start-up files (~/.claude/settings.json hooks, ~/.claude.json MCP servers,
// ~/.codex/config.toml, ~/.gemini/settings.json, …) run code the next time
// the person starts that agent outside the sandbox. WithAgent gives it a
// per-run home instead, the way `sentinel run` gives each adapter a per-run
// state directory.
type AgentNeeds struct {
	// Copy are the files, relative to home, copied into the per-run home
	// when the person has them: the agent's login and settings.
	Copy []string
	// DirEnv names the variable that moves the agent's files out of home
	// (CLAUDE_CONFIG_DIR, CODEX_HOME). When it is set, the entries of Copy
	// that DirFiles names are read from that directory instead. Inside it
	// is never set: the per-run home holds everything.
	DirEnv   string
	DirFiles map[string]string // Copy entry → path relative to $DirEnv
	PassEnv  []string
}

// KnownAgents maps an agent CLI's binary name to its needs.
var KnownAgents = map[string]AgentNeeds{
	"claude": {
		Copy:     []string{".claude.json", ".claude/.credentials.json"},
		DirEnv:   "CLAUDE_CONFIG_DIR",
		DirFiles: map[string]string{".claude.json": ".claude.json", ".claude/.credentials.json": ".credentials.json"},
		PassEnv:  []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_AUTOUPDATER"},
	},
	"codex": {
		Copy:   []string{".codex/auth.json", ".codex/config.toml", ".codex/AGENTS.md", ".codex/AGENTS.override.md"},
		DirEnv: "CODEX_HOME",
		DirFiles: map[string]string{".codex/auth.json": "auth.json", ".codex/config.toml": "config.toml",
			".codex/AGENTS.md": "AGENTS.md", ".codex/AGENTS.override.md": "AGENTS.override.md"},
		PassEnv: []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"},
	},
	"gemini": {
		Copy:    []string{".gemini/settings.json", ".gemini/oauth_creds.json", ".gemini/google_accounts.json", ".gemini/GEMINI.md"},
		PassEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI"},
	},
	"opencode": {
		Copy:    []string{".config/opencode/opencode.json", ".config/opencode/AGENTS.md", ".local/share/opencode/auth.json"},
		PassEnv: []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
	"crush": {
		Copy:    []string{".config/crush/crush.json", ".local/share/crush/crush.json"},
		PassEnv: []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
}

// WithAgent returns p set up for the named agent on a per-run home:
// runHome (an empty directory the caller made and removes afterwards, not
// inside anything the profile hides or makes read-only) gets copies of the
// agent's files from home, becomes HOME inside and is the only place outside
// the workspace the command may write. Nothing written there reaches the
// person's home. An unknown name is an error.
func (p Profile) WithAgent(name, home, runHome string) (Profile, error) {
	n, ok := KnownAgents[name]
	if !ok {
		return p, fmt.Errorf("agent %q: unknown; use claude, codex, gemini, opencode or crush", name)
	}
	dirEnv := ""
	if n.DirEnv != "" {
		dirEnv = os.Getenv(n.DirEnv)
	}
	for _, rel := range n.Copy {
		src := filepath.Join(home, rel)
		if alt, ok := n.DirFiles[rel]; ok && dirEnv != "" {
			src = filepath.Join(dirEnv, alt)
		}
		if err := agentutil.CopyPrivate(src, filepath.Join(runHome, rel)); err != nil {
			return p, fmt.Errorf("copy %s into the sandbox's home: %w", src, err)
		}
	}
	p.Writable = append(p.Writable, runHome)
	p.PassEnv = append(p.PassEnv, n.PassEnv...)
	if name == "codex" {
		p.PassEnv = append(p.PassEnv, codexProviderEnv(filepath.Join(runHome, ".codex", "config.toml"))...)
	}
	p.PassEnv = slices.DeleteFunc(p.PassEnv, func(k string) bool { return n.DirEnv != "" && k == n.DirEnv })
	p.Env = append(p.Env, "HOME="+runHome)
	return p, nil
}

// codexProviderEnv names the variables the model provider in a Codex
// config.toml reads (its env_key and env_http_headers), which must reach
// Codex for a person's own provider to work; nothing when the file is
// missing, unreadable, or uses Codex's built-in provider.
func codexProviderEnv(configPath string) []string {
	var c struct {
		ModelProvider string `toml:"model_provider"`
		Providers     map[string]struct {
			EnvKey      string            `toml:"env_key"`
			HTTPHeaders map[string]string `toml:"env_http_headers"`
		} `toml:"model_providers"`
	}
	if _, err := toml.DecodeFile(configPath, &c); err != nil {
		return nil
	}
	p, ok := c.Providers[c.ModelProvider]
	if !ok {
		return nil
	}
	var out []string
	if p.EnvKey != "" {
		out = append(out, p.EnvKey)
	}
	for _, v := range p.HTTPHeaders {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
