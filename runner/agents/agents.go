// Package agents is the one registry of the coding agents Sentinel knows:
// each entry (a coder.Agent, declared in the agent's own folder) is the
// whole agent — how to recognise its program, install it, what it needs of
// the person's home, its co-author, hook dialect, shim, and the adapters
// sentinel run and sentinel exec start it with. Adding an agent is its
// folder and one line in All.
//
// Everything that asks "which agents are there" or "which agent is this
// program" reads it: doctor, shims, exec (Of), sandbox --agent, the
// landing commit's trailer, the user service's scanner (Identify), ps.
//
// It must not hold any one agent's knowledge beyond the agents that have
// no folder of their own (crush, goose: recognised, never driven), and must
// not be imported by a hook's path (runner/dialects stays light).
package agents

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/runner/aider"
	"github.com/sentinelhq/sentinel/runner/claude"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/codex"
	"github.com/sentinelhq/sentinel/runner/geminicli"
	"github.com/sentinelhq/sentinel/runner/opencode"
)

// Agent is one entry (runner/coder holds the type, so that each agent's
// folder can declare its own).
type Agent = coder.Agent

// all are the agents, in the order help, doctor and errors name them.
var all = []*Agent{
	&claude.Agent,
	&codex.Agent,
	&geminicli.Agent,
	&opencode.Agent,
	&aider.Agent,
	&crush,
	&goose,
}

// crush is recognised and checked by doctor, its hooks have a dialect,
// but Sentinel does not drive it yet.
var crush = Agent{
	Name:    "crush",
	Title:   "Crush",
	Install: "npm install -g @charmland/crush",
	Home: coder.Home{
		Copy:    []string{".config/crush/crush.json", ".local/share/crush/crush.json"},
		PassEnv: []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY"},
	},
	Dialect: "crush",
}

// goose is recognised (its shim, the service's scanner) and runs in place
// as any program.
var goose = Agent{Name: "goose", Shim: true}

// All are the agents, in the order help, doctor and errors name them.
func All() []*Agent { return append([]*Agent(nil), all...) }

// Lookup is the agent named name (its program's name), or nil.
func Lookup(name string) *Agent {
	for _, a := range all {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Coder is the agent a --coder name runs, or nil.
func Coder(name string) *Agent {
	for _, a := range all {
		if a.Name == name {
			return a
		}
		for _, c := range a.Coders {
			if c == name {
				return a
			}
		}
	}
	return nil
}

// Names are the names of the agents for which has is true, in order.
func Names(has func(*Agent) bool) []string {
	var out []string
	for _, a := range all {
		if has(a) {
			out = append(out, a.Name)
		}
	}
	return out
}

// Shimmed says an agent gets a launcher shim.
func Shimmed(a *Agent) bool { return a.Shim }

// Installable says an agent has an install command (doctor checks it).
func Installable(a *Agent) bool { return a.Install != "" }

// Sandboxable says an agent can run in a bare sandbox (sandbox --agent).
func Sandboxable(a *Agent) bool { return len(a.Home.Copy) > 0 || len(a.Home.PassEnv) > 0 }

// Hooked says an agent's in-place adapter is its own (with its hooks or
// plugin), not any program's.
func Hooked(a *Agent) bool { return a.InPlace != nil }

// CoderNames are the --coder names the agents answer to, in order.
func CoderNames() []string {
	var out []string
	for _, a := range all {
		out = append(out, a.Coders...)
	}
	return out
}

// CoAuthor is the Co-authored-by trailer for coder: the agent's own, else
// the coder's name at Sentinel's address.
func CoAuthor(coderName string) string {
	if a := Lookup(coderName); a != nil && a.CoAuthor != "" {
		return a.CoAuthor
	}
	name := strings.Map(func(r rune) rune {
		if r == '<' || r == '>' || r == '\n' {
			return -1
		}
		return r
	}, coderName)
	if name == "" {
		name = "coder"
	}
	return name + " (via Sentinel) <sentinel@localhost>"
}

// OrList is "a, b, c or d".
func OrList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Unknown is the error for a name that is no agent with has.
func Unknown(name string, has func(*Agent) bool) error {
	return fmt.Errorf("agent %q: unknown; use %s", name, OrList(Names(has)))
}
