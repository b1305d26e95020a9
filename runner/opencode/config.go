package opencode

import "github.com/sentinelhq/sentinel/internal/agentutil"

// ExecConfig is a person's opencode (1.18) config made for a run whose
// every tool call Sentinel's plugin decides first, keeping their
// providers, model, MCP servers, agents and instructions:
//
//   - "plugin" is dropped: a plugin is code in opencode's own process,
//     which could run anything, or change a call's arguments after
//     Sentinel judged them, outside Sentinel's sight. Sentinel's plugin is
//     the only one loaded (see Prepare for the other places plugins come
//     from).
//   - every "ask" in a permission (global, or an agent's or mode's own) is
//     "allow", and the two opencode asks about by default
//     (external_directory, doom_loop) are allowed unless the person said
//     otherwise: the plugin runs before opencode's own permission check,
//     so Sentinel's chain (policy, templates, the person's card) has
//     already decided the call, and asking again in opencode's own prompt
//     would ask the person twice (and headless `opencode run` rejects
//     every ask). Every "deny" stays: the person's denials only narrow.
//   - each local MCP server and each language server with a command
//     starts through the system shell (agentutil.ScopedArgv), so in place
//     it enters a signal scope and cannot kill the hooks.
//   - opencode's built-in language servers are off (builtinLSPOff): it
//     starts them itself, not through any command of the config.
//   - autoupdate is off: it cannot replace the installed binary from the
//     sandbox, and its check would reach the network.
//   - instructions gains extra (Sentinel's where-am-I text, the project's
//     AGENTS.md), absolute paths.
func ExecConfig(m map[string]any, extra []string) map[string]any {
	if m == nil {
		m = map[string]any{}
	}
	delete(m, "plugin")
	perm, ok := m["permission"].(map[string]any)
	if !ok {
		if s, isWord := m["permission"].(string); isWord {
			// One word for every permission: "*" in the object form.
			perm = map[string]any{"*": s}
		} else {
			perm = map[string]any{}
		}
	}
	for _, k := range []string{"external_directory", "doom_loop"} {
		if _, set := perm[k]; !set {
			perm[k] = "allow"
		}
	}
	m["permission"] = askToAllow(perm)
	for _, key := range []string{"agent", "mode"} {
		if agents, ok := m[key].(map[string]any); ok {
			for _, a := range agents {
				if t, ok := a.(map[string]any); ok {
					if p, ok := t["permission"]; ok {
						t["permission"] = askToAllow(p)
					}
				}
			}
		}
	}
	m["autoupdate"] = false
	// Each local MCP server and each language server the person set a
	// command for starts through the system shell, so in place it enters
	// a signal scope (agentutil.ScopeArgvServers).
	for _, key := range []string{"mcp", "lsp"} {
		if servers, ok := m[key].(map[string]any); ok {
			agentutil.ScopeArgvServers(servers)
		}
	}
	builtinLSPOff(m)
	if len(extra) > 0 {
		var ins []any
		if old, ok := m["instructions"].([]any); ok {
			ins = append(ins, old...)
		}
		for _, e := range extra {
			ins = append(ins, e)
		}
		m["instructions"] = ins
	}
	return m
}

// askToAllow is a permission value (a word, or patterns to words, nested)
// with every "ask" made "allow".
func askToAllow(v any) any {
	switch t := v.(type) {
	case string:
		if t == "ask" {
			return "allow"
		}
		return t
	case map[string]any:
		for k, x := range t {
			t[k] = askToAllow(x)
		}
		return t
	}
	return v
}
