package geminicli

import (
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Agent is Gemini CLI as Sentinel knows it (runner/agents lists it).
var Agent = coder.Agent{
	Name:     "gemini",
	Title:    "Gemini CLI",
	Packages: []string{"@google/gemini-cli"},
	Install:  "npm install -g @google/gemini-cli",
	Home: coder.Home{
		Copy:    []string{".gemini/settings.json", ".gemini/oauth_creds.json", ".gemini/google_accounts.json", ".gemini/GEMINI.md"},
		PassEnv: []string{"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI", "GEMINI_CLI_NO_RELAUNCH"},
	},
	CoAuthor: "Gemini CLI <gemini-cli@google.com>",
	Dialect:  "gemini",
	Shim:     true,
	NotCoder: `speaks ACP: use --coder acp "task" -- gemini --acp`,
	// Over ACP its key and endpoint are read as in place.
	HostedModel: func([]string) coder.Model { return model{} },
	ACP:         &acpGuest,
	InPlace: func(p coder.InPlaceArgs) (coder.Adapter, error) {
		// Its hooks start sentinel-helper when it sits beside this binary.
		return New(Options{Launch: p.Program(), Args: p.Args(), Helper: p.Helper}), nil
	},
}

// model is Gemini CLI's sign-in and model endpoint (preflight.go).
type model struct{}

func (model) SignIn() error                               { return SignIn() }
func (model) ModelEndpoint() (url, fix string, err error) { return ModelEndpoint() }

func (model) ModelProbe() coder.Probe { return coder.GeminiProbe }
