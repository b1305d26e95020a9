// Package aider is Aider (aider.chat) as a coder: its program, its flags,
// what it needs of the sandbox, and its entry in the agent registry
// (Agent). Aider has no hooks: under sentinel run and sentinel exec the
// sandbox is its only gate per action (network hosts still become approval
// requests through the proxy, and a run's verification, review and landing
// still apply). It speaks to its model over the OpenAI-compatible API at
// OPENAI_API_BASE (or Anthropic's with ANTHROPIC_API_KEY).
//
// It must not reach into runner: it is given a coder.Setup and returns
// argv, environment and needs.
package aider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/coder"
)

// Install is how the person installs Aider.
const Install = "python -m pip install aider-install && aider-install"

// Options say how the adapter starts Aider.
type Options struct {
	// Binary is the program to run; "" is aider from PATH.
	Binary string
	// Launch and Args, in place (sentinel exec), are the program as the
	// person started it and their own arguments, run as they are.
	Launch []string
	Args   []string
}

// Adapter starts Aider.
type Adapter struct {
	opts Options
	// history is where Aider keeps its chat and input history for a run
	// (the run's state directory), never the workspace: else its files
	// would be part of the patch.
	history string
}

// New returns the adapter.
func New(o Options) *Adapter { return &Adapter{opts: o} }

func (a *Adapter) Name() string { return "aider" }

func (a *Adapter) binary() string {
	if a.opts.Binary != "" {
		return a.opts.Binary
	}
	return "aider"
}

// Preflight checks Aider is installed.
func (a *Adapter) Preflight() error {
	if a.opts.Launch != nil {
		return nil // exec found it on PATH already
	}
	if _, err := exec.LookPath(a.binary()); err != nil {
		return fmt.Errorf("coder aider is not installed: no %s on PATH (install it: %s)", a.binary(), Install)
	}
	return nil
}

// Argv is, in place, the program as the person started it; under sentinel
// run, Aider asked to do the task and exit (--message), saying yes to its
// own questions (the sandbox is the gate), committing nothing (Sentinel
// lands the patch), with no repository map cache, update check, analytics
// or .gitignore edit in the workspace, and its history in the run's state.
func (a *Adapter) Argv(task string) ([]string, error) {
	if a.opts.Launch != nil {
		return append(append([]string(nil), a.opts.Launch...), a.opts.Args...), nil
	}
	argv := []string{a.binary(), "--yes-always", "--no-auto-commits", "--no-gitignore", "--map-tokens", "0",
		"--no-check-update", "--no-analytics", "--no-show-release-notes", "--no-pretty"}
	if a.history != "" {
		argv = append(argv, "--chat-history-file", filepath.Join(a.history, "chat.history.md"),
			"--input-history-file", filepath.Join(a.history, "input.history"))
	}
	if strings.TrimSpace(task) != "" {
		argv = append(argv, "--message", task)
	}
	return argv, nil
}

func (a *Adapter) Env() []string            { return nil }
func (a *Adapter) FullScreen() bool         { return false }
func (a *Adapter) PerCommandApproval() bool { return false }

// SteerBytes: Aider reads a message as one line at its prompt.
func (a *Adapter) SteerBytes(text string) []byte {
	return []byte(strings.ReplaceAll(text, "\n", " ") + "\r")
}

// FailureSource: Aider has no protocol to say why it failed: its last
// words are its error.
func (a *Adapter) FailureSource() coder.FailureSource { return coder.ExitStatus }

// PassEnv are the variables that carry Aider's model keys and endpoints.
var PassEnv = []string{"OPENAI_API_KEY", "OPENAI_API_BASE", "ANTHROPIC_API_KEY", "AIDER_MODEL", "AIDER_OPENAI_API_BASE"}

// PrepareRun keeps Aider's history in the run's state directory and lets
// its model's host through the proxy.
func (a *Adapter) PrepareRun(s coder.Setup) (coder.Prepared, error) {
	n := agentutil.Needs{PassEnv: PassEnv, AllowHosts: modelHosts(os.Getenv)}
	if a.opts.Launch == nil && s.StateDir != "" {
		a.history = filepath.Join(s.StateDir, "aider")
		if err := os.MkdirAll(a.history, 0o700); err != nil {
			return coder.Prepared{}, err
		}
		n.Writable = append(n.Writable, a.history)
	}
	return coder.Prepared{Needs: n}, nil
}

// modelHosts are the hosts Aider's model is reached at: the
// OpenAI-compatible base when one is set, else OpenAI's and Anthropic's.
func modelHosts(getenv func(string) string) []string {
	for _, k := range []string{"AIDER_OPENAI_API_BASE", "OPENAI_API_BASE"} {
		if hp, ok := agentutil.URLHostPort(getenv(k)); ok {
			return []string{hp}
		}
	}
	return []string{"api.openai.com:443", "api.anthropic.com:443"}
}
