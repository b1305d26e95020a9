package sandbox

import "path/filepath"

// AgentNeeds is what a known coding agent needs inside the sandbox beyond
// the default profile: its state files and directories (writable) and the
// environment variables that carry its API keys and endpoints. Adapters may
// use it as a starting point and add their own; users add more in config.
type AgentNeeds struct {
	Writable []string // relative to the home directory
	PassEnv  []string
}

// KnownAgents maps an agent CLI's binary name to its needs.
var KnownAgents = map[string]AgentNeeds{
	"claude": {
		Writable: []string{".claude", ".claude.json", ".claude.json.backup", ".cache/claude"},
		PassEnv:  []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_AUTOUPDATER"},
	},
	"codex": {
		Writable: []string{".codex"},
		PassEnv:  []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME"},
	},
	"gemini": {
		Writable: []string{".gemini"},
		PassEnv:  []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI"},
	},
	"opencode": {
		Writable: []string{".config/opencode", ".local/share/opencode", ".local/state/opencode", ".cache/opencode"},
		PassEnv:  []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
	"crush": {
		Writable: []string{".config/crush", ".local/share/crush"},
		PassEnv:  []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
}

// WithAgent returns p widened by what the named agent needs (unknown names
// change nothing).
func (p Profile) WithAgent(name, home string) Profile {
	n, ok := KnownAgents[name]
	if !ok {
		return p
	}
	for _, w := range n.Writable {
		p.Writable = append(p.Writable, filepath.Join(home, w))
	}
	p.PassEnv = append(p.PassEnv, n.PassEnv...)
	return p
}
