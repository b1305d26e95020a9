package geminicli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// MinVersion is the oldest Gemini CLI the adapter starts: the one its
// hooks, approval mode and failure handling were measured with (doc.go).
// An older one's hooks may fail open where this one's do not.
const MinVersion = "0.61.0"

// Package is the npm package Gemini CLI ships in; its package.json says the
// version (Preflight).
const Package = "@google/gemini-cli"

// Options configure an Adapter.
type Options struct {
	// Launch is how the person started Gemini CLI (the real program, or
	// e.g. node and its gemini.js) and Args their own arguments, given
	// after Sentinel's.
	Launch []string
	Args   []string
	// Helper is the program that answers the hooks (`HELPER hook gemini`):
	// sentinel-helper, or the sentinel binary itself.
	Helper string
}

// Adapter starts Gemini CLI under Sentinel's hooks. Its method set matches
// runner.Adapter.
type Adapter struct {
	opts    Options
	home    string       // the per-run GEMINI_CLI_HOME (Prepare)
	kept    *keptHistory // in place: the history kept (history.go)
	trusted bool         // the project's .gemini/ is hidden: the workspace may be trusted
	made    string       // the project's .gemini/, made by Prepare to be hidden (Cleanup)
	notes   []string
}

// New returns the adapter; Preflight checks the installation.
func New(o Options) *Adapter { return &Adapter{opts: o} }

// Name is the agent's name.
func (a *Adapter) Name() string { return "gemini" }

// FullScreen is true: the session is Gemini's own, on the pty.
func (a *Adapter) FullScreen() bool { return true }

// PerCommandApproval is true: every tool call goes through the BeforeTool hook.
func (a *Adapter) PerCommandApproval() bool { return true }

// SteerBytes types a steering message into Gemini's prompt and submits it.
func (a *Adapter) SteerBytes(text string) []byte {
	return []byte(strings.Join(strings.Fields(text), " ") + "\r")
}

// Notes are what Prepare left out or could not do, for the run's journal.
func (a *Adapter) Notes() []string { return a.notes }

// Preflight checks Gemini CLI is there and, by its files, at least MinVersion, the
// helper is there, and no argument of the person's would trust a
// workspace whose .gemini/ Sentinel cannot hide (see Prepare).
func (a *Adapter) Preflight() error {
	if len(a.opts.Launch) == 0 {
		return errors.New("gemini: no program to start")
	}
	if a.opts.Helper == "" {
		return errors.New("gemini: no sentinel helper for its hooks")
	}
	if _, err := os.Stat(a.opts.Helper); err != nil {
		return fmt.Errorf("gemini: the hook helper %s: %w (reinstall sentinel)", a.opts.Helper, err)
	}
	// Its version comes from its files: nothing of it runs on the host
	// before the sandbox (agentutil.InstalledVersion); unknown is not
	// refused.
	prog := a.opts.Launch[len(a.opts.Launch)-1]
	if _, err := os.Stat(prog); strings.Contains(prog, "/") && err != nil {
		return fmt.Errorf("gemini: %s: %v (install it with: npm install -g @google/gemini-cli)", prog, err)
	}
	v, where := agentutil.InstalledVersion(prog, Package)
	if v != "" && agentutil.CompareVersions(v, MinVersion) < 0 {
		return fmt.Errorf("gemini: version %s (%s) is older than %s, whose hooks Sentinel was verified with (update it with: npm install -g @google/gemini-cli@latest)", v, where, MinVersion)
	}
	return nil
}

// Argv is Gemini CLI with --approval-mode yolo before the person's own
// arguments (doc.go: Sentinel's hook is then the one gate), unless they
// chose an approval mode themselves.
func (a *Adapter) Argv(string) ([]string, error) {
	argv := append([]string(nil), a.opts.Launch...)
	if !choosesMode(a.opts.Args) {
		argv = append(argv, "--approval-mode", "yolo")
	}
	return append(argv, a.opts.Args...), nil
}

// choosesMode says whether args set Gemini's approval mode.
func choosesMode(args []string) bool {
	for _, arg := range args {
		if arg == "--" {
			return false
		}
		if arg == "-y" || arg == "--yolo" || arg == "--approval-mode" || strings.HasPrefix(arg, "--approval-mode=") ||
			strings.HasPrefix(arg, "--yolo=") || (len(arg) > 2 && arg[0] == '-' && arg[1] != '-' && strings.ContainsRune(arg, 'y')) {
			return true
		}
	}
	return false
}

// Env points Gemini CLI at the per-run home and says whether the
// workspace is trusted (trustEnv).
func (a *Adapter) Env() []string {
	env := trustEnv(a.trusted)
	if a.home != "" {
		env = append(env, "GEMINI_CLI_HOME="+a.home)
	}
	return env
}
