package acp

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Adapter starts an ACP agent (the command given after --) under Sentinel.
// Its method set matches runner.Adapter; the runner drives it through Start
// (pipes, JSON-RPC), not the pty path.
type Adapter struct {
	argv  []string
	guest coder.ACPGuest // what the agent needs beyond the protocol
	home  string         // the per-run HOME (set by Prepare)
	// run is what the run said (SetRun); gate starts the person's stdio
	// MCP servers behind Sentinel's MCP gate; notes are what Prepare left
	// out (Notes); trusted says the guest's Contain hid the workspace's
	// own settings, so the agent may trust the workspace (see mcp.go).
	run     RunSetup
	gate    *MCPGate
	notes   []string
	trusted bool
}

// New returns the adapter for argv, e.g. ["gemini", "--acp"]; guest (nil:
// none) is what that agent's entry says it needs beyond the protocol.
func New(argv []string, guest *coder.ACPGuest) (*Adapter, error) {
	if len(argv) == 0 {
		return nil, errors.New("--coder acp needs the agent's command after --: sentinel run --coder acp \"task\" -- gemini --acp")
	}
	a := &Adapter{argv: argv}
	if guest != nil {
		a.guest = *guest
	}
	return a, nil
}

// Name is the coder's name as --coder spells it.
func (a *Adapter) Name() string { return "acp" }

// FullScreen is false: an ACP agent draws nothing.
func (a *Adapter) FullScreen() bool { return false }

// PerCommandApproval is true: the agent asks before each action.
func (a *Adapter) PerCommandApproval() bool { return true }

// SteerBytes is nil: steering is a prompt (Session.Steer).
func (a *Adapter) SteerBytes(string) []byte { return nil }

// Preflight checks the agent's program exists.
func (a *Adapter) Preflight() error {
	if _, err := exec.LookPath(a.argv[0]); err != nil {
		return fmt.Errorf("coder acp: %s not found on PATH: install the agent, or give its full path after --", a.argv[0])
	}
	return nil
}

// Program is the agent's program as given.
func (a *Adapter) Program() string { return a.argv[0] }

// Hosted is the agent's command as it will start (coder.Hosting): the run
// reads the agent's entry by it.
func (a *Adapter) Hosted() []string {
	argv, _ := a.Argv("")
	return argv
}

// Argv is the agent's command, as its guest entry has it start.
func (a *Adapter) Argv(string) ([]string, error) {
	if a.guest.Argv == nil {
		return a.argv, nil
	}
	return a.guest.Argv(a.argv), nil
}

// Env points HOME at the per-run home, where the agent keeps its state,
// and adds what its guest entry needs.
func (a *Adapter) Env() []string {
	var env []string
	if a.home != "" {
		env = append(env, "HOME="+a.home)
	}
	if a.guest.Env != nil {
		env = append(env, a.guest.Env(a.argv, a.trusted)...)
	}
	return env
}

// ReadDelegation says whether to offer the agent fs/read_text_file: yes,
// unless its entry says it cannot take the client's answer
// (coder.ACPGuest.NoReadDelegation).
func (a *Adapter) ReadDelegation() bool { return !a.guest.NoReadDelegation }

// Needs is what a run adds to its sandbox profile for the ACP agent.
type Needs = agentutil.Needs

// KeyEnv are the variables ACP agents read their model access from; they
// pass into the sandbox when set (and so does what the agent's entry adds,
// coder.ACPGuest.PassEnv).
var KeyEnv = []string{
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION",
	"GOOGLE_GENAI_USE_VERTEXAI", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL",
	"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENROUTER_API_KEY",
}

// Prepare makes the per-run home in stateDir (outside the read-only run
// directory, removed with the run) from the person's home, as the agent's
// guest entry has it (PrepareHome: their logins, their settings made to
// ask Sentinel first, their global instructions and whereAmI, Sentinel's
// text about where the coder is; the person's home itself is never
// readable in the sandbox). It returns what the sandbox must allow and
// keep read-only.
func (a *Adapter) Prepare(home, stateDir, whereAmI string) (Needs, error) {
	abs, err := filepath.Abs(stateDir)
	if err != nil {
		return Needs{}, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return Needs{}, fmt.Errorf("acp: make the agent's home: %w", err)
	}
	var protected, notes []string
	if a.guest.PrepareHome != nil {
		if protected, notes, err = a.guest.PrepareHome(home, abs, whereAmI, a.gate); err != nil {
			return Needs{}, err
		}
	}
	needs := Needs{Writable: []string{abs}, Protected: protected, PassEnv: slices.Concat(KeyEnv, a.guest.PassEnv)}
	if a.guest.Contain != nil {
		hide, note := a.guest.Contain(abs, a.run.Workspace, a.run.Contained)
		if note != "" {
			notes = append(notes, note)
		}
		if hide != "" {
			needs.Hidden = append(needs.Hidden, hide)
			a.trusted = true
		}
	}
	a.notes = notes
	a.home = abs
	return needs, nil
}
