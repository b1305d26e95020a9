package opencode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// MinVersion is the oldest opencode this adapter accepts. Verified end to
// end with 1.18.33: plugins in the config dir's plugin/ folder, a throwing
// tool.execute.before blocking the call, OPENCODE_DISABLE_PROJECT_CONFIG,
// and a read-only config dir (see Prepare).
const MinVersion = "1.18.0"

// Packages are the npm packages opencode ships in (the launcher and its
// per-platform binaries); their package.json says the version (Preflight).
var Packages = []string{"opencode-ai", "opencode-linux-x64", "opencode-linux-arm64", "opencode-linux-x64-musl",
	"opencode-linux-arm64-musl", "opencode-darwin-x64", "opencode-darwin-arm64"}

// Options configure an Adapter.
type Options struct {
	// Launch is how the person started opencode in place (the real
	// program, or e.g. node and its script) and Args their own arguments,
	// passed on as they are.
	Launch []string
	Args   []string
	// Sentinel is the program the plugin runs as its hook
	// (`<Sentinel> hook opencode`): sentinel-helper or the sentinel binary.
	Sentinel string
	// DecideWait and ReportWait override the plugin's DecideWait and
	// ReportWait (tests); zero keeps them.
	DecideWait, ReportWait time.Duration
}

// Adapter runs opencode in place (sentinel exec) with Sentinel's plugin as
// its approval hook. Its method set matches runner.Adapter.
type Adapter struct {
	opts Options
	home string // the run's own HOME for opencode (Prepare)
	db   string // in place: the project's kept sessions (sessions.go)
}

// New returns the adapter; it does not check the installation (Preflight does).
func New(o Options) *Adapter { return &Adapter{opts: o} }

// Name is the agent's name.
func (a *Adapter) Name() string { return "opencode" }

// GitDirState names opencode's own state in the project's git dir: on its
// first run in a repository it writes its project id to .git/opencode,
// which git never reads (runner/inplace_agentstate.go).
func (a *Adapter) GitDirState() []string { return []string{"opencode"} }

// AgentStateDirs names opencode's own state that its commands must not
// write, in place: the project's session store (sessions.go), which a
// later run's `opencode --continue` reads. None outside a run in place.
// The run's HOME is not in it: the commands build and cache there.
func (a *Adapter) AgentStateDirs() []string {
	if a.db == "" {
		return nil
	}
	return []string{filepath.Dir(a.db)}
}

// FullScreen is true: opencode draws its own TUI (or, as `opencode run`,
// prints to the terminal).
func (a *Adapter) FullScreen() bool { return true }

// PerCommandApproval is true: every tool call goes through the plugin.
func (a *Adapter) PerCommandApproval() bool { return true }

// SteerBytes types text into opencode's prompt and submits it.
func (a *Adapter) SteerBytes(text string) []byte {
	return []byte(strings.Join(strings.Fields(text), " ") + "\r")
}

// Preflight checks opencode is there and recent enough for the plugin.
func (a *Adapter) Preflight() error {
	if len(a.opts.Launch) == 0 {
		return errors.New("opencode: no program to run")
	}
	if a.opts.Sentinel == "" {
		return errors.New("opencode: no hook program for Sentinel's plugin")
	}
	// Its version comes from its files: nothing of it runs on the host
	// before the sandbox (agentutil.InstalledVersion); unknown is not
	// refused.
	prog := a.opts.Launch[len(a.opts.Launch)-1]
	if _, err := os.Stat(prog); strings.Contains(prog, "/") && err != nil {
		return fmt.Errorf("opencode: %s: %v (install it with: npm install -g opencode-ai)", prog, err)
	}
	v, where := agentutil.InstalledVersion(prog, Packages...)
	if v != "" && agentutil.CompareVersions(v, MinVersion) < 0 {
		return fmt.Errorf("opencode: version %s (%s) is older than %s, whose plugins Sentinel's approvals need (update it with: npm install -g opencode-ai@latest)", v, where, MinVersion)
	}
	return nil
}

// Argv is the person's command as they gave it: Sentinel's part is in the
// run's config, not on the command line. In place there is no task.
func (a *Adapter) Argv(string) ([]string, error) {
	if len(a.opts.Launch) == 0 {
		return nil, errors.New("opencode: no program to run")
	}
	return append(append([]string(nil), a.opts.Launch...), a.opts.Args...), nil
}

// Env points opencode at the run's own home (Prepare), in place at the
// project's kept sessions (OPENCODE_DB, sessions.go), and keeps the
// project's opencode settings unread: a project's plugins (.opencode/plugin,
// or "plugin" in its opencode.json) would be code in opencode's process
// that Sentinel never vetted. Auto-update is off.
func (a *Adapter) Env() []string {
	env := []string{"OPENCODE_DISABLE_PROJECT_CONFIG=1", "OPENCODE_DISABLE_AUTOUPDATE=1"}
	if a.home != "" {
		env = append(env, "HOME="+a.home)
	}
	if a.db != "" {
		env = append(env, "OPENCODE_DB="+a.db)
	}
	return env
}

// Home is the run's own HOME for opencode, once prepared.
func (a *Adapter) Home() string { return a.home }

// hookArgv is the command the plugin runs for each call.
func (a *Adapter) hookArgv() ([]string, error) {
	exe, err := filepath.Abs(a.opts.Sentinel)
	if err != nil {
		return nil, fmt.Errorf("opencode: hook program %s: %w", a.opts.Sentinel, err)
	}
	return []string{exe, "hook", HookName}, nil
}

// waits are the plugin's waits.
func (a *Adapter) waits() (decide, report time.Duration) {
	decide, report = DecideWait, ReportWait
	if a.opts.DecideWait > 0 {
		decide = a.opts.DecideWait
	}
	if a.opts.ReportWait > 0 {
		report = a.opts.ReportWait
	}
	return decide, report
}
