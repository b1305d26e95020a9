package claude

import (
	"os"
	"path/filepath"
)

// endpointPins are the variables that choose where Claude Code sends the
// person's credentials and conversation (and whether it checks the far
// end's certificate), each with the value it takes when neither the person
// nor the host sets it ("" leaves it unpinned).
//
// Claude Code takes a settings file's env into its own environment, and a
// repository's .claude/settings.json (a coder's write in an earlier
// in-place run) is one: its "env" with ANTHROPIC_BASE_URL sent the next
// in-place launch's API key and conversation to the coder's server
// (e2e/claude TestExecClaudeProjectSettingsCannotMoveTheEndpoint). The
// managed policy's env outranks every settings file's, so it names these
// as the run was started with.
var endpointPins = []struct{ name, unset string }{
	{"ANTHROPIC_BASE_URL", DefaultBaseURL},
	{"CLAUDE_CODE_USE_BEDROCK", "0"},
	{"CLAUDE_CODE_USE_VERTEX", "0"},
	{"CLAUDE_CODE_USE_FOUNDRY", "0"},
	{"ANTHROPIC_BEDROCK_BASE_URL", ""},
	{"ANTHROPIC_VERTEX_BASE_URL", ""},
	{"ANTHROPIC_FOUNDRY_BASE_URL", ""},
	{"NODE_TLS_REJECT_UNAUTHORIZED", "1"},
}

// pinEndpoint names each endpointPins variable in env (the managed
// policy's, host entries already in it and kept) as the person has it: in
// their own settings kept for the run (userSettings, nil when none), else
// in the environment Sentinel was started with, else its unset value.
func pinEndpoint(env map[string]any, host, userSettings map[string]any) {
	hostEnv, _ := host["env"].(map[string]any)
	userEnv, _ := userSettings["env"].(map[string]any)
	for _, p := range endpointPins {
		if _, ok := hostEnv[p.name]; ok {
			continue // the administrator's own value stands
		}
		v := p.unset
		if s, ok := userEnv[p.name].(string); ok && s != "" {
			v = s
		} else if s := os.Getenv(p.name); s != "" {
			v = s
		}
		if v != "" {
			env[p.name] = v
		}
	}
}

// runUserSettings are the person's settings as kept in the run's config
// dir (Claude Code's user settings there), nil when none.
func (a *Adapter) runUserSettings() map[string]any {
	if a.opts.ConfigDir == "" {
		return nil
	}
	m, err := readSettings(filepath.Join(a.opts.ConfigDir, "settings.json"))
	if err != nil {
		return nil
	}
	return m
}
