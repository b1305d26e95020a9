package claude

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Agent is Claude Code as Sentinel knows it (runner/agents lists it).
var Agent = coder.Agent{
	Name:     "claude",
	Title:    "Claude Code",
	Packages: []string{"@anthropic-ai/claude-code"},
	Install:  "npm install -g @anthropic-ai/claude-code",
	Home: coder.Home{
		Copy:    []string{".claude.json", ".claude/.credentials.json"},
		DirEnv:  "CLAUDE_CONFIG_DIR",
		Dir:     ".claude",
		PassEnv: []string{"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "DISABLE_AUTOUPDATER"},
	},
	History: func(home, runHome, dir string) (*agentutil.KeptState, error) {
		return KeepHistory(PersonalDir(home), filepath.Join(runHome, ".claude"), dir)
	},
	CoAuthor: "Claude <noreply@anthropic.com>",
	Dialect:  "claude",
	Shim:     true,
	Coders:   []string{"claude", "claude-headless"},
	MCPServers: func(home, project string) ([]coder.MCPServer, []string) {
		return PersonMCPServers(home, project), MCPServerPaths(home, project)
	},
	Run: func(r coder.RunArgs) (coder.Adapter, error) {
		// Claude Code's hooks start sentinel-helper when it sits beside
		// this binary: one bare Go program's start per tool call.
		mode := Interactive
		if r.Name == "claude-headless" {
			mode = Headless
		}
		return New(Options{Mode: mode, Sentinel: r.Helper}), nil
	},
	// In place its hooks start the sentinel binary itself (Options.Sentinel
	// unset).
	InPlace: func(p coder.InPlaceArgs) (coder.Adapter, error) {
		return New(Options{Mode: Interactive, Binary: p.Launch[p.At-1], Launch: p.Program(), Args: p.Args()}), nil
	},
}
