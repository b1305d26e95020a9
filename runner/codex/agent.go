package codex

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/BurntSushi/toml"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Agent is Codex as Sentinel knows it (runner/agents lists it).
var Agent = coder.Agent{
	Name:     "codex",
	Title:    "Codex",
	Packages: []string{"@openai/codex"},
	Install:  "npm install -g @openai/codex",
	Home: coder.Home{
		Copy:    []string{".codex/auth.json", ".codex/config.toml", ".codex/AGENTS.md", ".codex/AGENTS.override.md"},
		DirEnv:  "CODEX_HOME",
		Dir:     ".codex",
		PassEnv: []string{"OPENAI_API_KEY", "OPENAI_BASE_URL"},
		MoreEnv: func(runHome string) []string { return providerEnv(filepath.Join(runHome, ".codex", "config.toml")) },
	},
	History: func(home, runHome, dir string) (*agentutil.KeptState, error) {
		return KeepHistory(PersonDir(os.Getenv, home), filepath.Join(runHome, ".codex"), dir)
	},
	CoAuthor: "Codex <noreply@openai.com>",
	Dialect:  "codex",
	Shim:     true,
	Coders:   []string{"codex"},
	MCPServers: func(home, _ string) ([]coder.MCPServer, []string) {
		person, err := LoadPerson(PersonDir(os.Getenv, home))
		if err != nil {
			return nil, nil
		}
		var out []coder.MCPServer
		for _, s := range person.MCPServers() {
			out = append(out, coder.MCPServer{Name: s.Name, Scope: "user", Command: s.Command, Args: s.Args, Env: s.Env})
		}
		return out, person.MCPServerPaths(home)
	},
	Run: func(coder.RunArgs) (coder.Adapter, error) {
		return New(Options{Provider: ProviderFromEnv()}), nil
	},
	InPlace: func(p coder.InPlaceArgs) (coder.Adapter, error) {
		// Its hooks start sentinel-helper when it sits beside this binary,
		// as Claude Code's do in sentinel run.
		return New(Options{Mode: Interactive, Provider: ProviderFromEnv(), Sentinel: p.Helper,
			Binary: p.Launch[p.At-1], Launch: p.Program(), Args: p.Args()}), nil
	},
}

// providerEnv names the variables the model provider in a Codex
// config.toml reads (its env_key and env_http_headers), which must reach
// Codex for a person's own provider to work; nothing when the file is
// missing, unreadable, or uses Codex's built-in provider.
func providerEnv(configPath string) []string {
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
