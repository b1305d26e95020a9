package aider

import "github.com/sentinelhq/sentinel/runner/coder"

// Agent is Aider as Sentinel knows it (runner/agents lists it).
var Agent = coder.Agent{
	Name:     "aider",
	Title:    "Aider",
	Packages: []string{"aider-chat", "aider"},
	Install:  Install,
	Home: coder.Home{
		Copy:    []string{".aider.conf.yml", ".aider.model.settings.yml"},
		PassEnv: PassEnv,
	},
	CoAuthor: "Aider <noreply@aider.chat>",
	Shim:     true,
	Coders:   []string{"aider"},
	Run:      func(coder.RunArgs) (coder.Adapter, error) { return New(Options{}), nil },
	InPlace: func(p coder.InPlaceArgs) (coder.Adapter, error) {
		return New(Options{Launch: p.Program(), Args: p.Args()}), nil
	},
	InPlaceGate: "the sandbox as its only gate: Aider has no approval hooks, so nothing it runs is asked about (network hosts still are)",
}
