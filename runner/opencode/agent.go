package opencode

import (
	"github.com/sentinelhq/sentinel/runner/coder"
)

// AuthFile is opencode's logins, relative to its home: what a run copies
// in, whichever way opencode runs (in place, over ACP, sandbox --agent).
const AuthFile = ".local/share/opencode/auth.json"

// Agent is opencode as Sentinel knows it (runner/agents lists it).
var Agent = coder.Agent{
	Name:     "opencode",
	Title:    "opencode",
	Packages: []string{"opencode-ai"},
	Install:  "npm install -g opencode-ai",
	Home: coder.Home{
		Copy:    []string{configDir + "/opencode.json", configDir + "/AGENTS.md", authFile},
		PassEnv: []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
	CoAuthor: "opencode <noreply@opencode.ai>",
	Dialect:  "opencode",
	Shim:     true,
	NotCoder: `speaks ACP: use --coder acp "task" -- opencode acp`,
	// Over ACP its provider, key and endpoint are read from the person's
	// opencode config and logins, for the model its arguments name.
	HostedModel: func(args []string) coder.Model { return model{args} },
	ACP:         &acpGuest,
	InPlace: func(p coder.InPlaceArgs) (coder.Adapter, error) {
		// Sentinel's plugin starts sentinel-helper for each tool call
		// when it sits beside this binary (the sentinel binary otherwise).
		return New(Options{Sentinel: p.Helper, Launch: p.Program(), Args: p.Args()}), nil
	},
	InPlaceGate: "Sentinel's plugin as its approval hook: every tool call is decided as in sentinel run (your and the project's own opencode plugins are not loaded)",
}

// model is opencode's sign-in and model endpoint for the model args name
// (preflight.go).
type model struct{ args []string }

func (m model) SignIn() error                               { return SignIn(m.args) }
func (m model) ModelEndpoint() (url, fix string, err error) { return ModelEndpoint(m.args) }
func (m model) ModelProbe() coder.Probe                     { return ModelProbe(m.args) }
