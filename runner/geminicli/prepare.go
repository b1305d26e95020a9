package geminicli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/acp"
)

// Needs is what a run adds to its sandbox profile for Gemini CLI.
type Needs = agentutil.Needs

// RunPaths say where one run lives, for Prepare.
type RunPaths struct {
	Home     string // the person's home directory (read, never written)
	StateDir string // the per-run home: writable in the sandbox, removed with the run
	Project  string // the project Gemini works in (in place: the person's own)
	Socket   string // the run's broker socket, which the hooks ask
	WhereAmI string // Sentinel's text about where Gemini is
	// Contained says the sandbox hides paths inside the project
	// (sandbox.PlacesEnforced: the Linux sandbox).
	Contained bool
	// KeepHistory (in place) keeps Gemini's history for the project
	// across runs as direct use does (history.go).
	KeepHistory bool
}

// SystemSettings is Gemini CLI's system settings file on Linux: the
// administrator's, which outranks every other.
var SystemSettings = "/etc/gemini-cli/settings.json"

// projectDir is the project's own Gemini CLI directory (doc.go).
const projectDir = ".gemini"

// Prepare makes the per-run home from the person's (prepareHome)
// with Sentinel's hooks in its settings, hides the project's .gemini/ when
// the sandbox can, and returns what the sandbox must allow.
func (a *Adapter) Prepare(p RunPaths) (Needs, error) {
	if p.Socket == "" {
		return Needs{}, errors.New("gemini: no broker socket for its hooks")
	}
	if err := checkSystemSettings(SystemSettings); err != nil {
		return Needs{}, err
	}
	abs, err := filepath.Abs(p.StateDir)
	if err != nil {
		return Needs{}, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return Needs{}, fmt.Errorf("gemini: make its per-run home: %w", err)
	}
	protected, notes, err := prepareHome(p.Home, abs, p.WhereAmI, nil, func(m map[string]any) {
		a.withHooks(m, p.Socket)
	})
	if err != nil {
		return Needs{}, err
	}
	a.home, a.notes = abs, notes
	if p.KeepHistory {
		if a.kept, err = keepHistoryFor(filepath.Join(p.Home, ".gemini"), filepath.Join(abs, ".gemini"), p.Project); err != nil {
			return Needs{}, fmt.Errorf("gemini: keep its history: %w", err)
		}
	}
	if !choosesMode(a.opts.Args) {
		a.notes = append(a.notes, "gemini: started with --approval-mode yolo (its \"YOLO mode\" line) so that it does not ask again after Sentinel: every tool call still goes through Sentinel's hook first")
	}
	needs := Needs{Writable: []string{abs}, Protected: protected, PassEnv: slices.Concat(acp.KeyEnv, acpGuest.PassEnv),
		// bash -c runs the hook command: BASH_ENV would run first.
		DropEnv: []string{"BASH_ENV", "ENV", "NODE_OPTIONS", "LD_PRELOAD"}}
	hide, err := a.contain(p)
	if err != nil {
		return Needs{}, err
	}
	if hide != "" {
		needs.Hidden = append(needs.Hidden, hide)
	}
	return needs, nil
}

// withHooks puts Sentinel's hooks, and only them, in forced settings m:
// hooks on, none of them disabled by name, and yolo allowed (Argv asks
// for it: see doc.go).
func (a *Adapter) withHooks(m map[string]any, socket string) {
	m["hooks"] = Hooks(a.opts.Helper, socket)
	m["hooksConfig"] = map[string]any{"enabled": true}
	if sec, ok := m["security"].(map[string]any); ok {
		sec["disableYoloMode"] = false
	}
}

// contain hides the project's .gemini/ inside the sandbox (making it first
// when missing, so that the coder cannot add one either) and trusts the
// workspace; without the sandbox's hiding it leaves the workspace
// untrusted and refuses --skip-trust. It returns the path to hide.
func (a *Adapter) contain(p RunPaths) (string, error) {
	if !p.Contained || p.Project == "" {
		if slices.Contains(a.opts.Args, "--skip-trust") {
			return "", errors.New("gemini: --skip-trust would load the project's .gemini settings, which can switch Sentinel's hooks off, and without the Linux sandbox Sentinel cannot hide them: leave --skip-trust out")
		}
		a.notes = append(a.notes, "gemini: the project stays untrusted (without the Linux sandbox Sentinel cannot hide its .gemini settings, which could switch Sentinel's hooks off): gemini -p refuses to start in it")
		return "", nil
	}
	dir := filepath.Join(p.Project, projectDir)
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", fmt.Errorf("gemini: make %s to hide it: %w", dir, err)
		}
		a.made = dir
	case err != nil:
		return "", fmt.Errorf("gemini: %w", err)
	case !st.IsDir():
		// A symlink would hide where it points, not what Gemini reads.
		return "", fmt.Errorf("gemini: %s is not a directory, so Sentinel cannot hide it from Gemini CLI: move it away, or use sentinel run --coder acp -- gemini --acp", dir)
	}
	a.trusted = true
	return dir, nil
}

// Cleanup removes the project's .gemini/ when Prepare made it and it is
// still empty.
func (a *Adapter) Cleanup() {
	if a.made != "" {
		_ = os.Remove(a.made) // not empty: someone else's now; kept
	}
}

// checkSystemSettings refuses a run whose administrator's settings switch
// hooks off: they outrank the per-run settings, and Gemini would then run
// every tool call without asking Sentinel.
func checkSystemSettings(path string) error {
	m, err := readJSONC(path)
	if err != nil {
		return fmt.Errorf("gemini: the system settings: %w", err)
	}
	hc, _ := m["hooksConfig"].(map[string]any)
	off := hc["enabled"] == false
	if names, ok := hc["disabled"].([]any); ok {
		off = off || slices.Contains(names, any("sentinel"))
	}
	if off {
		return fmt.Errorf("gemini: the system settings %s switch hooks off, so Sentinel's approvals would not run: use sentinel run --coder acp -- gemini --acp instead", path)
	}
	return nil
}
