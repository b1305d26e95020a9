package codex

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// Codex run in place (`sentinel exec -- codex ARGS...`, Mode Interactive):
// the person's own command line — the TUI, `codex exec`, any subcommand —
// with Sentinel's hooks as the gate, since nothing speaks app-server to
// it. Measured with 0.171.0 and the fake Responses server:
//
//   - Codex reads Claude-shaped hooks (PreToolUse, PermissionRequest,
//     PostToolUse, Stop…) from hooks.json files and [hooks] tables. Its
//     shell tool reaches PreToolUse as tool "Bash" with tool_input.command,
//     apply_patch as "apply_patch" with the patch in tool_input.command, an
//     MCP tool as mcp__<server>__<tool> (and, approved, it ran under
//     approval "never" with the server's tools set to "prompt").
//     A hook's deny (permissionDecision "deny", or exit 2 with the reason
//     on stderr) blocks the call and the model hears the reason. An allow
//     must be an exit 0 with no output: permissionDecision "allow" is
//     "unsupported" (the hook is marked failed, and the call runs anyway).
//     A hook that fails — exit 1, a crash, ended by a signal ("hook exited
//     without a status code") — lets the call run: Codex 0.171.0 has no
//     setting that makes a failed hook block. So Sentinel's hook command
//     answers every failure with a deny (runner/hookclient), a SIGHUP,
//     SIGINT or SIGTERM while it waits included, and runs as a guard
//     (hookclient.Guard): Codex waits on it, an inner hook holds the card,
//     and an inner hook killed (SIGKILL) or stopped past its wait is
//     answered with a deny — measured: the call was refused and the model
//     heard "killed by SIGKILL before Sentinel answered" (e2e/codex
//     TestExecCodexSessionHooksHold/KilledInnerHookBlocksTheCall). A command that kills the
//     guard (first, or `kill -9 -1`, or SIGSTOP then SIGKILL) still gets
//     the call run: the guard is the coder's uid in the coder's pid
//     namespace, so under the Linux sandbox each command Codex starts is
//     kept from signalling it at all (next point); without that (an older
//     kernel, --sandbox off) the broker's bypass watch
//     (approvals/bypass.go) stops the run after the call.
//   - Keeping the coder's commands from signalling the hooks:
//     internal/shellscope, built on what was measured. Codex's own Linux
//     sandbox (`codex sandbox`, bubblewrap) cannot nest in Sentinel's
//     ("bwrap: No permissions to create new namespace": Sentinel's seccomp
//     refuses new namespaces; allowed, Landlock would refuse bwrap's
//     mounts), and its legacy Landlock mode refuses a restricted file
//     system ("requires bubblewrap"). A nested Landlock domain scoped for
//     signals (LANDLOCK_SCOPE_SIGNAL, ABI 6, no privilege, no namespace)
//     does it, and Codex starts commands and hooks as /bin/bash (the
//     passwd shell) or the system shell of the kind the model names in
//     exec_command's "shell" (/bin/dash ran as /bin/sh; a path of the
//     coder's named bash ran /bin/bash; python3 ran the default),
//     ignoring $SHELL and PATH. So the sandbox shows a wrapper over each
//     system shell's real file (bash, dash, zsh) and the real shells at
//     /.sentinel-shells; the wrapper enters a new scope unless it is
//     already below one and execs the real shell. Each command, and each
//     hook, is then in a scope of its own: a command's `kill -9 -1`,
//     `pkill -9 -f 'hook codex'` or SIGSTOP reaches nothing outside it
//     (e2e/codex TestExecCodexSessionHooksHold/BackgroundKillerCannotReachTheHooks: an
//     approved background loop killing every hook process five times a
//     second left the next call's card up). Codex, outside, still ends the
//     commands it started. The cost: a command cannot signal what an
//     earlier command started (call 2's `pkill -f vite` misses call 1's
//     server). Servers Codex starts itself (MCP) stay in its domain.
//   - Hooks from config layers (CODEX_HOME's hooks.json, a project's
//     .codex/) run only once trusted (a hash kept in config.toml, set in
//     the TUI). Managed hooks need no trust: RequirementsPath's [hooks]
//     tables ran at once, and with allow_managed_hooks_only = true no
//     other hook ran — not a hooks.json in CODEX_HOME, not the project's,
//     not even with --dangerously-bypass-hook-trust — while --disable hooks
//     and features.hooks = false on the command line did not turn them
//     off. Under the Linux sandbox that file is Sentinel's (Requirements,
//     shown read-only at RequirementsPath, like Claude Code's managed
//     policy); nothing the person or the coder passes reaches around it.
//   - Without a sandbox to place it (--sandbox off) the hooks go in the
//     run's CODEX_HOME/hooks.json and Codex is started with
//     --dangerously-bypass-hook-trust (a global flag, before the person's
//     arguments and any subcommand); `-c bypass_hook_trust=true` and the
//     key in config.toml did not do it. The project's own hooks stay off
//     then because the project is untrusted (below); the person's own
//     ~/.codex hooks are never copied.
//   - approval_policy "never" and sandbox_mode "danger-full-access" in
//     config.toml: Sentinel's PreToolUse hook is the gate for every tool
//     call, and Sentinel's sandbox the boundary (Codex's own would be
//     nested inside it). Codex's own approvals are not routed through a
//     PermissionRequest hook: under "never" it asks nothing (measured: no
//     PermissionRequest fired). A person who passes -a on-request should
//     get Codex's prompt as a second gate after Sentinel's, never instead
//     of it, since PreToolUse runs before a call is approved or run (not
//     measured with the TUI).
//   - The project is marked untrusted in the run's config.toml, as `run`
//     never loads it: its .codex/config.toml, hooks and exec policies stay
//     off. Without the mark the TUI asks to trust the folder and would
//     write the answer into the read-only config.toml; with it the TUI
//     shows "Open restricted" once (Enter goes on).
//   - Not gated: write_stdin, which types into a command Codex started
//     with a terminal and left running (exec_command tty), reached no hook
//     (PreToolUse nor PermissionRequest, with write_stdin_approval on too):
//     what it types is judged only as the command it was started as (the
//     policy asks about or denies a shell or interpreter reading its
//     input, so `bash` or `python3` alone never start unasked).
//   - Two network requests reach Sentinel's proxy from the TUI before any
//     tool call, both answered by the person like any host (denying them
//     cost nothing measured): raw.githubusercontent.com:443 (its tips;
//     [tui] show_tooltips = false did not stop it) and 127.0.0.1:<port>,
//     its own "codex_tui" MCP server on the sandbox's loopback, reached
//     through the proxy (a [mcp_servers.codex_tui] entry to turn it off
//     is refused as a config error).

// Mode is how Codex is driven.
type Mode int

const (
	// AppServer is `sentinel run --coder codex`: `codex app-server`,
	// JSON-RPC on pipes, approvals asked over the protocol.
	AppServer Mode = iota
	// Interactive is `sentinel exec -- codex ...`: the person's own
	// command line under the pty, Sentinel's hooks the gate.
	Interactive
)

// RequirementsPath is where Codex reads the machine's requirements, its
// managed policy; the sandbox shows Sentinel's there (Needs.Places).
const RequirementsPath = "/etc/codex/requirements.toml"

// HookTimeout is the per-hook timeout, in seconds, given to Codex. The hook
// command denies before it (approvals.EnvHookTimeout).
const HookTimeout = 600

// HookEvents are the Codex hook events routed to Sentinel's hook command:
// PreToolUse decides every tool call; PostToolUse journals its result and
// Stop the end of a turn.
var HookEvents = []string{"PreToolUse", "PostToolUse", "Stop"}

// bypassHookTrust runs hooks without a stored trust, for this invocation only.
const bypassHookTrust = "--dangerously-bypass-hook-trust"

// HookCommand is the shell command Codex runs for each hook event.
func (a *Adapter) HookCommand() (string, error) {
	if a.opts.Sentinel == "" {
		return "", fmt.Errorf("codex: no sentinel program for the hooks (Options.Sentinel is empty)")
	}
	exe, err := filepath.Abs(a.opts.Sentinel)
	if err != nil {
		return "", fmt.Errorf("sentinel binary %s: %w", a.opts.Sentinel, err)
	}
	return agentutil.ShellQuote(exe) + " hook " + HookName, nil
}

// hookTables are Sentinel's hooks in Codex's hook shape: for each event in
// HookEvents one matcher group holding the hook command.
func hookTables(command string) map[string]any {
	hooks := map[string]any{}
	for _, ev := range HookEvents {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": command, "timeout": HookTimeout}}}
		if ev != "Stop" {
			group["matcher"] = "*"
		}
		hooks[ev] = []any{group}
	}
	return hooks
}

// Requirements is the requirements.toml shown at RequirementsPath: hooks
// on, Sentinel's hook command for every event in HookEvents as managed
// hooks (they run without trust), and no other hook allowed.
func Requirements(command string) (string, error) {
	var b strings.Builder
	b.WriteString("# Written by Sentinel for one run: only Sentinel's hooks run.\n")
	err := toml.NewEncoder(&b).Encode(map[string]any{
		"allow_managed_hooks_only": true,
		"features":                 map[string]any{"hooks": true},
		"hooks":                    hookTables(command),
	})
	if err != nil {
		return "", fmt.Errorf("codex requirements: %w", err)
	}
	return b.String(), nil
}

// writeHooks puts Sentinel's hooks where this run's Codex runs them: the
// managed requirements file in policyDir when the sandbox places it
// (returned as the place to show), else CODEX_HOME/hooks.json, run with
// bypassHookTrust.
func (a *Adapter) writeHooks(home, policyDir string, placed bool) (map[string]string, error) {
	cmd, err := a.HookCommand()
	if err != nil {
		return nil, err
	}
	if placed && policyDir != "" {
		text, err := Requirements(cmd)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(policyDir, "codex-requirements.toml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			return nil, fmt.Errorf("write codex's requirements: %w", err)
		}
		return map[string]string{RequirementsPath: file}, nil
	}
	b, err := json.MarshalIndent(map[string]any{"hooks": hookTables(cmd)}, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(home, hooksFile), append(b, '\n'), 0o600); err != nil {
		return nil, fmt.Errorf("write codex's hooks: %w", err)
	}
	a.bypassTrust = true
	return nil, nil
}

// hooksFile is the hooks file in CODEX_HOME.
const hooksFile = "hooks.json"

// inPlaceSettings are the config.toml settings of an interactive session
// over forcedSettings: hooks on, Codex asking nothing itself, and the
// project untrusted (see the top of this file).
func inPlaceSettings(c map[string]any, workspace string) {
	if f, ok := c["features"].(map[string]any); ok {
		f["hooks"] = true
	}
	c["approval_policy"] = "never"
	// Steering (SteerBytes) arrives as one write, text and Enter: Codex's
	// TUI took it for a paste and kept the Enter as a newline, so the
	// message was never sent (measured); with this it is submitted.
	c["disable_paste_burst"] = true
	if workspace != "" {
		c["projects"] = map[string]any{workspace: map[string]any{"trust_level": "untrusted"}}
	}
}
