package claude

import (
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/claude/claudehook"

	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// MinVersion is the oldest Claude Code this adapter accepts: it needs
// PreToolUse hooks answering permissionDecision, --settings JSON,
// --setting-sources and disableAllHooks. Verified end to end with 2.1.332.
const MinVersion = "2.1.0"

// Package is the npm package Claude Code ships in; its package.json says
// the version (Preflight).
const Package = "@anthropic-ai/claude-code"

// HookTimeout is the per-hook timeout, in seconds, given to Claude Code. The
// hook command itself denies before it (approvals.EnvHookTimeout), because
// Claude Code lets a timed-out hook's call proceed.
const HookTimeout = 600

// HookEvents are the Claude Code hook events routed to `sentinel hook claude`.
// PostToolUseFailure journals a tool call that failed (a command that exited
// non-zero), which PostToolUse never sees.
var HookEvents = []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "StopFailure", "Notification"}

// Mode is how Claude Code is driven.
type Mode int

const (
	// Interactive runs Claude Code's own full-screen TUI under the pty, the
	// task as its first prompt.
	Interactive Mode = iota
	// Headless runs `claude -p` speaking stream-json on stdin and stdout.
	Headless
)

// Options configure an Adapter.
type Options struct {
	Mode Mode
	// Binary is the claude executable; empty looks up "claude" on PATH.
	Binary string
	// Launch, when set, is how the person started Claude Code in place
	// (sentinel exec: the real program, or e.g. node and its cli.js) and
	// Args their own arguments, given after Sentinel's flags (interactive
	// mode only). Launch replaces Binary on the command line.
	Launch []string
	Args   []string
	// Sentinel is the sentinel executable the hooks call; empty is the
	// running executable.
	Sentinel string
	// Model is passed as --model when set.
	Model string
	// UserSettings lets Claude Code read the person's ~/.claude/settings.json
	// (--setting-sources user). Off by default: no settings file is read at
	// all (--setting-sources ""), because the coder can write that file and a
	// hook or "env" it adds there would run or apply in a later session
	// without any approval. When on, the sandbox must keep the file
	// read-only (see ProtectedPaths).
	UserSettings bool
	// ConfigDir, when set, is a per-run Claude Code state directory passed as
	// CLAUDE_CONFIG_DIR: all of Claude Code's writes (its .claude.json and the
	// lock and temp files it renames over it, transcripts, sessions) land in
	// it, so the sandbox needs only this one writable directory and the
	// person's own ~/.claude and ~/.claude.json stay untouched. Fill it with
	// PrepareConfigDir before the coder starts.
	ConfigDir string
	// Managed says the sandbox shows Sentinel's managed policy
	// (ManagedSettings) at ManagedSettingsPath: only its hooks run and only
	// its permission rules apply, so every settings file may be read
	// (--setting-sources user,project,local) and the person's and the
	// repository's instructions, commands, skills, agents, MCP servers and
	// env reach the model. Without it no settings file is read (see doc.go).
	Managed bool
	// Personal is the person's settings as kept (PersonalSettings) and Deny
	// their and the repository's deny rules: without Managed they travel in
	// --settings. Prepare fills both.
	Personal map[string]any
	Deny     []string
	// SystemPrompt is appended to Claude Code's system prompt
	// (--append-system-prompt): where it runs (agentutil.WhereAmI) and,
	// without Managed, the instructions it could not read itself.
	SystemPrompt string
	// Instructions are the person's and the repository's CLAUDE.md, read at
	// Prepare: without Managed they are appended to the system prompt.
	Instructions []string
	// MCPConfig is a file of the person's MCP servers passed with
	// --mcp-config when no managed policy lets Claude Code read them itself.
	MCPConfig string
}

// Adapter starts Claude Code under Sentinel. Its method set matches
// runner.Adapter.
type Adapter struct {
	opts Options
	kept *agentutil.KeptState // in place: the history kept (history.go)
	// workspace is where the agent works, whose sessions AgentDenials
	// reads (set by Prepare).
	workspace string
	// mcpjson are the names of the project's .mcp.json servers, which the
	// managed policy rejects: the approved ones start through the shell,
	// as local servers of the run (mcp_scope.go).
	mcpjson []string
}

// New returns the adapter; it does not check the installation (Preflight does).
func New(o Options) *Adapter { return &Adapter{opts: o} }

// Name is the coder's name as --coder spells it.
func (a *Adapter) Name() string { return "claude" }

// Mode is how this adapter drives Claude Code.
func (a *Adapter) Mode() Mode { return a.opts.Mode }

// FullScreen is true in interactive mode: Claude Code draws its own TUI.
func (a *Adapter) FullScreen() bool { return a.opts.Mode == Interactive }

// PerCommandApproval is true: every tool call goes through the PreToolUse hook.
func (a *Adapter) PerCommandApproval() bool { return true }

// Binary is the claude executable to run ("claude" on PATH when unset).
func (a *Adapter) Binary() (string, error) {
	if a.opts.Binary != "" {
		return a.opts.Binary, nil
	}
	p, err := exec.LookPath("claude")
	if err != nil {
		return "", errors.New("coder claude is not installed: no claude on PATH (install it with: npm install -g @anthropic-ai/claude-code)")
	}
	return p, nil
}

// Preflight checks claude is installed and recent enough, and that the
// sentinel executable for the hooks is there.
func (a *Adapter) Preflight() error {
	bin, err := a.Binary()
	if err != nil {
		return err
	}
	if _, err := a.sentinel(); err != nil {
		return err
	}
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("coder claude: %s: %v (install it with: npm install -g @anthropic-ai/claude-code)", bin, err)
	}
	// Its version comes from its files: nothing of it runs before the
	// sandbox (agentutil.InstalledVersion). Unknown is not refused.
	v, where := agentutil.InstalledVersion(bin, Package)
	if v == "" {
		return nil
	}
	if agentutil.CompareVersions(v, MinVersion) < 0 {
		return fmt.Errorf("coder claude: version %s (%s) is older than %s, which Sentinel's hooks need (update it with: npm install -g @anthropic-ai/claude-code@latest)", v, where, MinVersion)
	}
	return nil
}

func (a *Adapter) sentinel() (string, error) {
	exe := a.opts.Sentinel
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("find the sentinel binary for claude's hooks: %w", err)
		}
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("sentinel binary %s: %w", exe, err)
	}
	return abs, nil
}

// HookCommand is the shell command Claude Code runs for each hook event.
func (a *Adapter) HookCommand() (string, error) {
	exe, err := a.sentinel()
	if err != nil {
		return "", err
	}
	return agentutil.ShellQuote(exe) + " hook " + HookName, nil // run through a shell
}

// Settings is the JSON passed with --settings: Sentinel's hooks for every
// event in HookEvents, disableAllHooks forced off and the hook-skipping
// environment switches forced to "0" (--settings outranks every settings
// file; see doc.go).
//
// Without a managed policy (Options.Managed unset: --sandbox off, macOS)
// it also carries the person's settings env, display settings
// (displaySettings) and deny rules (Options.Personal) under those overrides:
// no settings file is read then.
func (a *Adapter) Settings() (string, error) {
	hooks, err := a.hooks()
	if err != nil {
		return "", err
	}
	// skipWebFetchPreflight: WebFetch otherwise first asks
	// api.anthropic.com/api/web/domain_info about every host it fetches.
	// Sentinel's host policy and proxy are the gate here; the preflight
	// would send each host name out and, with a gateway or another
	// ANTHROPIC_BASE_URL, fail (api.anthropic.com is not an allowed host),
	// so a host the person approved or --allow-host'ed could not be fetched.
	settings := map[string]any{"disableAllHooks": false, "env": hookEnv(), "hooks": hooks, "skipWebFetchPreflight": true}
	if !a.opts.Managed {
		if env, ok := a.opts.Personal["env"].(map[string]any); ok {
			merged := map[string]any{}
			for k, v := range env {
				merged[k] = v
			}
			for k, v := range hookEnv() {
				merged[k] = v
			}
			settings["env"] = merged
		}
		for _, k := range displaySettings {
			if v, ok := a.opts.Personal[k]; ok {
				settings[k] = v
			}
		}
		perms := a.unattendedPermissions()
		if len(a.opts.Deny) > 0 {
			perms["deny"] = a.opts.Deny
		}
		settings["permissions"] = perms
	}
	b, err := json.Marshal(settings)
	return string(b), err
}

// hookEnv outranks an "env" in any settings file that would put Claude
// Code in --bare or --safe-mode, both of which skip our hooks.
func hookEnv() map[string]any {
	return map[string]any{"CLAUDE_CODE_SIMPLE": "0", "CLAUDE_CODE_SAFE_MODE": "0"}
}

// hooks routes every event in HookEvents to HookCommand.
func (a *Adapter) hooks() (map[string]any, error) {
	cmd, err := a.HookCommand()
	if err != nil {
		return nil, err
	}
	events := HookEvents
	if a.denyByPermissionRequest() {
		// Its PreToolUse step answers a deny with "ask", and its
		// PermissionRequest step denies (claudehook.EnvDenyByPermissionRequest).
		cmd = claudehook.EnvDenyByPermissionRequest + "=1 " + cmd
		events = append(slices.Clone(HookEvents), "PermissionRequest")
	}
	hook := []map[string]any{{"type": "command", "command": cmd, "timeout": HookTimeout}}
	hooks := map[string]any{}
	for _, ev := range events {
		entry := map[string]any{"hooks": hook}
		if ev == "PreToolUse" || ev == "PostToolUse" || ev == "PostToolUseFailure" || ev == "PermissionRequest" {
			entry["matcher"] = "*"
		}
		hooks[ev] = []any{entry}
	}
	return hooks, nil
}

// denyByPermissionRequest says Sentinel's denies go through Claude's
// permission step (claudehook.EnvDenyByPermissionRequest), where Claude
// shows them as a decision with its reason: in a run only, whose settings
// carry denyInsteadOfPrompting (unattendedPermissions), and only where no
// allow rule can apply to a call the hook sent there — under the managed
// policy (allowManagedPermissionRulesOnly, no allow rule) or with no
// settings file read at all.
func (a *Adapter) denyByPermissionRequest() bool {
	return len(a.opts.Launch) == 0 && (a.opts.Managed || !a.opts.UserSettings)
}

// Argv is the command to run in the workspace. In interactive mode the task
// is the first prompt; in headless mode it is not on the command line but
// sent on stdin (InitialInput).
func (a *Adapter) Argv(task string) ([]string, error) {
	bin, err := a.Binary()
	if err != nil {
		return nil, err
	}
	settings, err := a.Settings()
	if err != nil {
		return nil, err
	}
	argv := []string{bin}
	if len(a.opts.Launch) > 0 {
		argv = append([]string(nil), a.opts.Launch...)
	}
	argv = append(argv, "--settings", settings, "--setting-sources", a.settingSources())
	if a.opts.Model != "" {
		argv = append(argv, "--model", a.opts.Model)
	}
	if a.opts.MCPConfig != "" && !a.opts.Managed {
		argv = append(argv, "--mcp-config", a.opts.MCPConfig)
	}
	if p := a.systemPrompt(); p != "" {
		argv = append(argv, "--append-system-prompt", p)
	}
	if a.opts.Mode == Headless {
		return append(argv, "-p", "--output-format", "stream-json", "--input-format", "stream-json", "--verbose"), nil
	}
	if strings.TrimSpace(task) != "" {
		// "--" so a task starting with "-" is never read as a flag.
		argv = append(argv, "--", task)
	}
	return append(argv, a.opts.Args...), nil
}

// InitialInput is what the runner writes to the coder's stdin right after
// it starts: in headless mode the task as a stream-json user message; in
// interactive mode nothing (the task is on the command line).
func (a *Adapter) InitialInput(task string) []byte {
	if a.opts.Mode != Headless || strings.TrimSpace(task) == "" {
		return nil
	}
	return UserMessage(task)
}

// SteerBytes encodes a steering message: a stream-json user message line in
// headless mode; in interactive mode the text typed into Claude Code's
// prompt as one line and submitted with Enter.
func (a *Adapter) SteerBytes(text string) []byte {
	if a.opts.Mode == Headless {
		return UserMessage(text)
	}
	line := strings.Join(strings.Fields(text), " ")
	return []byte(line + "\r")
}

// Env is what Claude Code needs on top of the sandbox's allowlist: no
// auto-updater, no telemetry or other non-essential traffic, and no
// automatic install of the official plugin marketplace (without it,
// interactive 2.1.332 reaches github.com:443 and downloads.claude.ai:443 at
// start even with the other switches — measured through Sentinel's proxy).
func (a *Adapter) Env() []string {
	env := []string{
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1",
	}
	if a.opts.ConfigDir != "" {
		env = append(env, "CLAUDE_CONFIG_DIR="+a.opts.ConfigDir)
	}
	if a.opts.Mode == Headless {
		// 2.1.332 connects MCP servers in the background by default: a
		// headless run's first turns went to the model without the
		// person's MCP tools (measured). Nobody watches a headless start,
		// so it waits for them.
		env = append(env, "MCP_CONNECTION_NONBLOCKING=false")
	}
	return env
}
