package codex

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"

	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// MinVersion is the oldest Codex this adapter accepts; the schema check in
// Preflight is what really decides. Verified end to end with 0.171.0.
const MinVersion = "0.169.0"

// Package is the npm package Codex ships in (its native binary under
// vendor/ included); its package.json says the version.
const Package = "@openai/codex"

// Options configure an Adapter.
type Options struct {
	// Binary is the codex executable; empty looks up "codex" on PATH.
	Binary string
	// Provider is the model endpoint written into CODEX_HOME/config.toml.
	Provider Provider
	// Home is the per-run CODEX_HOME (set by Prepare); outside /tmp.
	Home string
	// Mode is how Codex is driven: AppServer (sentinel run) or
	// Interactive (sentinel exec; see inplace.go).
	Mode Mode
	// Launch is how the person started Codex in place (the real program,
	// or node and its codex.js) and Args their own arguments, given after
	// Sentinel's (Interactive only).
	Launch []string
	Args   []string
	// Sentinel is the program the hooks call (`<Sentinel> hook codex`):
	// sentinel-helper or the sentinel binary (Interactive only).
	Sentinel string
}

// Adapter starts Codex under Sentinel. Its method set matches
// runner.Adapter. As `codex app-server` (AppServer) the runner must drive
// it through Start (pipes, JSON-RPC), not the pty path; in place
// (Interactive) it is the person's command line under the pty, gated by
// Sentinel's hooks.
type Adapter struct {
	opts Options
	plan *Plan // set by Prepare
	// bypassTrust: the hooks are in CODEX_HOME, not placed (writeHooks).
	bypassTrust bool
	kept        *agentutil.KeptState // in place: the history kept (history.go)
}

// New returns the adapter; it does not check the installation (Preflight does).
func New(o Options) *Adapter { return &Adapter{opts: o} }

// Name is the coder's name as --coder spells it.
func (a *Adapter) Name() string { return "codex" }

// Mode is how this adapter drives Codex.
func (a *Adapter) Mode() Mode { return a.opts.Mode }

// HookIsOnlyGate says Sentinel's hook is the only gate on Codex's calls, and
// Codex runs a call whose hook was killed or failed (0.171.0, measured;
// openai/codex#41979): true in place (Interactive), where Codex's own
// approvals are off. Through the app-server Sentinel answers Codex's own
// approval requests instead, which no killed process can skip.
func (a *Adapter) HookIsOnlyGate() bool { return a.opts.Mode == Interactive }

// FullScreen is false for the app-server, which draws nothing; true in
// place, where Codex may draw its TUI.
func (a *Adapter) FullScreen() bool { return a.opts.Mode == Interactive }

// PerCommandApproval is true: every command and file change is asked about
// (see ApprovalPolicy; in place, Sentinel's PreToolUse hook).
func (a *Adapter) PerCommandApproval() bool { return true }

// SteerBytes is nil for the app-server: its steering is a JSON-RPC call
// (Session.Steer), never bytes on a terminal. In place it is the text typed
// into Codex's prompt as one line, submitted with Enter.
func (a *Adapter) SteerBytes(text string) []byte {
	if a.opts.Mode != Interactive {
		return nil
	}
	return []byte(strings.Join(strings.Fields(text), " ") + "\r")
}

// Binary is the codex executable to run.
func (a *Adapter) Binary() (string, error) {
	if a.opts.Binary != "" {
		return a.opts.Binary, nil
	}
	p, err := exec.LookPath("codex")
	if err != nil {
		return "", errors.New("coder codex is not installed: no codex on PATH (install it with: npm install -g @openai/codex)")
	}
	return p, nil
}

// Argv is `codex app-server`; the task goes in over JSON-RPC (Config.Task).
// In place it is the person's own command line, with
// --dangerously-bypass-hook-trust before their arguments when the hooks
// could not be placed (inplace.go).
func (a *Adapter) Argv(string) ([]string, error) {
	bin, err := a.Binary()
	if err != nil {
		return nil, err
	}
	if a.opts.Mode != Interactive {
		return []string{bin, "app-server"}, nil
	}
	argv := []string{bin}
	if len(a.opts.Launch) > 0 {
		argv = append([]string(nil), a.opts.Launch...)
	}
	if a.bypassTrust {
		argv = append(argv, bypassHookTrust)
	}
	return append(argv, a.opts.Args...), nil
}

// Env is what Codex needs on top of the sandbox's allowlist: its per-run
// home (when prepared) and, for the app-server, no colour codes in its logs
// (in place, the person's terminal shows it as they are used to).
func (a *Adapter) Env() []string {
	var env []string
	if a.opts.Mode != Interactive {
		env = []string{"NO_COLOR=1", "RUST_LOG=warn"}
	}
	if a.opts.Home != "" {
		env = append(env, "CODEX_HOME="+a.opts.Home)
	}
	return env
}

// Preflight checks codex is installed and, by its files, recent enough.
// For the app-server, the run checks its protocol has every method and
// field Sentinel relies on (SchemaArgv, CheckSchema) in the sandbox.
func (a *Adapter) Preflight() error {
	bin, err := a.Binary()
	if err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("coder codex: %s: %v (install it with: npm install -g @openai/codex)", bin, err)
	}
	// Its version comes from its files: nothing of it runs on the host
	// before the sandbox (agentutil.InstalledVersion); unknown is not
	// refused.
	v, where := agentutil.InstalledVersion(bin, Package)
	if v != "" && agentutil.CompareVersions(v, MinVersion) < 0 {
		return fmt.Errorf("coder codex: version %s (%s) is older than %s, whose app-server Sentinel drives (update it with: npm install -g @openai/codex@latest)", v, where, MinVersion)
	}
	if a.opts.Mode == Interactive {
		// No app-server: the hooks are what it relies on (inplace.go).
		_, err := a.HookCommand()
		return err
	}
	// The app-server's schema (CheckSchema) is checked when the run starts
	// it, inside the sandbox (SchemaArgv): nothing of codex runs here.
	return nil
}
