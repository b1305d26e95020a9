package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/helperbin"
	"github.com/sentinelhq/sentinel/runner/acp"
	"github.com/sentinelhq/sentinel/runner/agents"
	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/demo"
)

// Adapter is how Sentinel starts and talks to one kind of coder (the
// contract is runner/coder's, so that the agents' folders and their
// registry, runner/agents, sit below the Run).
type Adapter = coder.Adapter

// demoAdapter runs Sentinel's own scripted coder: the sentinel binary in
// its hidden coder-demo mode, which asks the broker through the same client
// the real agents' hook commands use.
type demoAdapter struct {
	scenario string // path to a scenario file; empty for the built-in default
	exe      string
}

// CoderNameError says --coder names no coder, or one used the wrong way: a
// mistake in how Sentinel was called, not a failure of the run.
type CoderNameError struct{ Msg string }

func (e CoderNameError) Error() string { return e.Msg }

// NewAdapter returns the adapter for --coder name. command is the argv of
// the "command" coder (any program, given after --).
func NewAdapter(name, scenario string, command []string) (Adapter, error) {
	switch name {
	case "command":
		if len(command) == 0 {
			return nil, CoderNameError{"--coder command needs the program after --: sentinel run --coder command \"task\" -- CMD [ARG...]"}
		}
		return &commandAdapter{argv: command}, nil
	case "", "demo":
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("find the sentinel binary: %w", err)
		}
		return &demoAdapter{scenario: scenario, exe: exe}, nil
	case "acp":
		// What the agent needs beyond the protocol is its entry's.
		var guest *coder.ACPGuest
		if a, _ := agents.Of(command); a != nil {
			guest = a.ACP
		}
		return acp.New(command, guest)
	}
	if a := agents.Coder(name); a != nil {
		switch {
		case a.Run != nil:
			helper, err := helperbin.Path()
			if err != nil {
				return nil, err
			}
			return a.Run(coder.RunArgs{Name: name, Command: command, Helper: helper})
		case a.NotCoder != "":
			return nil, CoderNameError{fmt.Sprintf("coder %q %s", name, a.NotCoder)}
		}
		if _, err := exec.LookPath(name); err != nil {
			return nil, fmt.Errorf("coder %q is not installed: no %s on PATH (install it, or try --coder demo)", name, name)
		}
		return nil, fmt.Errorf("coder %q is not supported yet (try --coder demo)", name)
	}
	return nil, CoderNameError{fmt.Sprintf("unknown coder %q (known: %s)", name, strings.Join(CoderNames(), ", "))}
}

// CoderNames are the names --coder takes, in the order help and errors
// name them: the demo, each agent's own (runner/agents), then acp and
// command (a program given after --). Help, completion and NewAdapter's
// error read this one list.
func CoderNames() []string {
	return append(append([]string{"demo"}, agents.CoderNames()...), "acp", "command")
}

func (d *demoAdapter) Name() string { return "demo" }

func (d *demoAdapter) Preflight() error {
	if d.scenario == "" {
		return nil
	}
	if _, err := os.Stat(d.scenario); err != nil {
		return fmt.Errorf("scenario %s: %w (pass an existing TOML file to --scenario)", d.scenario, err)
	}
	_, err := demo.Load(d.scenario)
	return err
}

func (d *demoAdapter) Argv(task string) ([]string, error) {
	argv := []string{d.exe, "coder-demo"}
	if d.scenario != "" {
		abs, err := filepath.Abs(d.scenario)
		if err != nil {
			return nil, err
		}
		argv = append(argv, "--scenario", abs)
	}
	if strings.TrimSpace(task) != "" {
		argv = append(argv, "--task", task)
	}
	return argv, nil
}

func (d *demoAdapter) Env() []string            { return nil }
func (d *demoAdapter) FullScreen() bool         { return false }
func (d *demoAdapter) PerCommandApproval() bool { return true }

// The demo coder reads steering as one line on its terminal input.
func (d *demoAdapter) SteerBytes(text string) []byte {
	return []byte(strings.ReplaceAll(text, "\n", " ") + "\n")
}

// commandAdapter runs any program under the pty in the workspace, inside
// the sandbox. With no protocol to ask through, the sandbox is the only gate
// for what it runs: network hosts still become approval requests through the
// proxy, and verification, review and landing still apply.
type commandAdapter struct {
	argv []string
	// program is the known agent argv runs, in place, without hooks
	// (inplace_agent.go); "" for any other program.
	program string
}

func (c *commandAdapter) Name() string {
	if c.program != "" {
		return c.program
	}
	return "command"
}

func (c *commandAdapter) Preflight() error {
	if _, err := exec.LookPath(c.argv[0]); err != nil {
		return fmt.Errorf("coder command %q is not installed or not on PATH (check the program after --)", c.argv[0])
	}
	return nil
}

func (c *commandAdapter) Argv(string) ([]string, error) { return c.argv, nil }
func (c *commandAdapter) Env() []string                 { return nil }
func (c *commandAdapter) FullScreen() bool              { return true }
func (c *commandAdapter) PerCommandApproval() bool      { return false }
func (c *commandAdapter) SteerBytes(text string) []byte { return []byte(text + "\r") }

// FailureSource: any program has no protocol to say why it failed: its
// last words are its error.
func (c *commandAdapter) FailureSource() coder.FailureSource { return coder.ExitStatus }
