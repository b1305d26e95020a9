package claude

import (
	"os"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// ManagedSettingsPath is where Claude Code on Linux reads its managed
// (administrator) settings, the highest-precedence source. Under the Linux
// sandbox Sentinel's own policy is shown there, read-only, as a sandbox
// place; the host's file, if any, is never written.
const ManagedSettingsPath = "/etc/claude-code/managed-settings.json"

// ManagedSettings is Sentinel's managed policy for one run, on top of the
// host's own managed settings (host, nil when there are none), measured
// against 2.1.332:
//   - allowManagedHooksOnly: only these hooks run. A user, project or local
//     hook never runs, and a settings file's disableAllHooks does not stop
//     managed hooks; hooks in --settings do not run either.
//   - allowManagedPermissionRulesOnly: only the rules here apply. A
//     settings deny rule outranks a PreToolUse hook's "allow", and when a
//     hook fails (exits 1) an allow rule lets the call run — so no allow
//     rule from any file may apply. The person's and the repository's deny
//     rules (deny) are copied here and still refuse.
//   - bypassPermissions and auto mode are disabled; env forces --bare and
//     --safe-mode off, and names the run's shell (launchShell) and the
//     endpoint the run was started with (pinEndpoint).
//   - in a run (not in place), denyInsteadOfPrompting (unattendedPermissions).
//   - strictKnownMarketplaces empty: no plugin marketplace is added, so no
//     plugin's MCP server starts outside a signal scope.
func (a *Adapter) ManagedSettings(host map[string]any, deny []string) (map[string]any, error) {
	hooks, err := a.hooks()
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for k, v := range host {
		out[k] = v
	}
	// The host administrator's own hooks are managed hooks and keep running.
	if hostHooks, ok := host["hooks"].(map[string]any); ok {
		for ev, list := range hostHooks {
			if l, ok := list.([]any); ok {
				if ours, ok := hooks[ev].([]any); ok {
					hooks[ev] = append(slices.Clone(l), ours...)
				} else {
					hooks[ev] = l
				}
			}
		}
	}
	if len(a.mcpjson) > 0 {
		old, _ := agentutil.StringList(host["disabledMcpjsonServers"])
		out["disabledMcpjsonServers"] = dedupe(append(old, a.mcpjson...))
	}
	env := hookEnv()
	if hostEnv, ok := host["env"].(map[string]any); ok {
		for k, v := range hostEnv {
			if _, forced := env[k]; !forced {
				env[k] = v
			}
		}
	}
	// The endpoint is the person's, never a settings file's (pinEndpoint).
	pinEndpoint(env, host, a.runUserSettings())
	// The shell is the run's, never a settings file's (launchShell).
	env["SHELL"] = launchShell()
	env["CLAUDE_CODE_SHELL"] = env["SHELL"]
	perms := map[string]any{}
	if hp, ok := host["permissions"].(map[string]any); ok {
		for k, v := range hp {
			perms[k] = v
		}
		deny = append(denyRules(host), deny...)
	}
	delete(perms, "allow")
	delete(perms, "ask")
	perms["deny"] = dedupe(deny)
	for k, v := range a.unattendedPermissions() {
		perms[k] = v
	}
	out["hooks"] = hooks
	out["env"] = env
	out["permissions"] = perms
	// No plugin marketplace may be added (strictKnownMarketplaces empty):
	// a project's .claude/settings.json that names a marketplace
	// (extraKnownMarketplaces, a directory in the repository) and enables
	// its plugin otherwise had Claude Code 2.1.332 load it at start in a
	// trusted folder, with no dialog, and start the plugin's MCP servers
	// directly, in its own Landlock domain (no signal scope). The person's
	// own plugins are not copied into a run (personalEntries).
	out["strictKnownMarketplaces"] = []any{}
	out["allowManagedHooksOnly"] = true
	out["allowManagedPermissionRulesOnly"] = true
	out["disableAllHooks"] = false
	return out, nil
}

// settingSources is --setting-sources: every file under a managed policy;
// none without one (see doc.go).
func (a *Adapter) settingSources() string {
	switch {
	case a.opts.Managed:
		return "user,project,local"
	case a.opts.UserSettings:
		return "user"
	}
	return ""
}

// systemPrompt is what --append-system-prompt carries: where the coder is
// and, without a managed policy, the instructions Claude Code does not read
// itself then.
func (a *Adapter) systemPrompt() string {
	parts := []string{}
	if s := strings.TrimSpace(a.opts.SystemPrompt); s != "" {
		parts = append(parts, s)
	}
	if !a.opts.Managed {
		for _, in := range a.opts.Instructions {
			if s := strings.TrimSpace(in); s != "" {
				parts = append(parts, s)
			}
		}
	}
	return strings.Join(parts, "\n\n")
}

// hostManaged is the host's own managed settings file, or nil.
func hostManaged() map[string]any {
	s, err := readSettings(ManagedSettingsPath)
	if err != nil || len(s) == 0 {
		return nil
	}
	return s
}

func dedupe(in []string) []any {
	out := []any{}
	seen := map[string]bool{}
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// readInstructions reads a CLAUDE.md for the fallback system prompt, under
// a heading naming where it came from; "" when there is none.
func readInstructions(path, heading string) string {
	b, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(b)) == "" {
		return ""
	}
	return heading + "\n" + string(b)
}

// unattendedPermissions are the permission settings every Claude Code under
// Sentinel gets: bypassPermissions and auto mode disabled (in auto mode,
// Claude's default in 2.1.332, a call whose hook was killed runs). A run's
// coder (sentinel run: no Launch) also gets denyInsteadOfPrompting: when
// Sentinel's PreToolUse hook gives no answer — killed, or ended at its
// timeout — Claude falls back to its own "Do you want to proceed? 1. Yes"
// dialog, where an Enter typed into the coder's pane runs the call
// unchecked; with it, Claude refuses the call itself (the evidence:
// cmd/sentinel/e2e/claude TestRealClaudeFallsBackToItsDialogWhenAPreToolUseHookDies).
// In place (sentinel exec) the person is at Claude's own screen and keeps
// its dialog, its question tool and plan mode, which the setting withdraws;
// there Claude's hook runs under hookclient's guard, which answers a
// killed inner hook with a deny (exit 2), so a hook killed by the coder's
// command no longer reaches that dialog (measured: cmd/sentinel/e2e/claude
// TestExecClaudeSessionHooksHold/KilledInnerHookBlocksTheCall).
func (a *Adapter) unattendedPermissions() map[string]any {
	p := map[string]any{"disableBypassPermissionsMode": "disable", "disableAutoMode": "disable"}
	if len(a.opts.Launch) == 0 {
		p["denyInsteadOfPrompting"] = true
	}
	return p
}
