package opencode

import (
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// The person's local MCP servers and the language servers they set a
// command for start through the system shell in the run's config, so in
// place each enters a signal scope (opencode starts them directly, in its
// own Landlock domain, from which they could kill the hooks).
func TestTheRunsServersStartThroughTheShell(t *testing.T) {
	m := ExecConfig(map[string]any{
		"mcp": map[string]any{"s": map[string]any{"type": "local", "command": []any{"bun", "srv.ts"}},
			"web": map[string]any{"type": "remote", "url": "https://mcp.example/"}},
		"lsp": map[string]any{"go": map[string]any{"command": []any{"gopls"}, "extensions": []any{".go"}}},
	}, nil)
	through := func(argv ...any) []any {
		return append([]any{agentutil.ScopeShell, "-c", agentutil.ScopeScript}, argv...)
	}
	if got := m["mcp"].(map[string]any)["s"].(map[string]any)["command"]; !reflect.DeepEqual(got, through("bun", "srv.ts")) {
		t.Errorf("mcp server s command = %v", got)
	}
	if _, set := m["mcp"].(map[string]any)["web"].(map[string]any)["command"]; set {
		t.Errorf("the remote server got a command")
	}
	if got := m["lsp"].(map[string]any)["go"].(map[string]any)["command"]; !reflect.DeepEqual(got, through("gopls")) {
		t.Errorf("lsp go command = %v", got)
	}
}

// opencode's built-in language servers (started by opencode itself, not
// through any command of the config: 31-scope29 row 10) are off in a run:
// "lsp": true is false, and in an object each built-in without the
// person's own command is disabled; the person's own command stays,
// through the shell.
func TestOpencodesBuiltinLanguageServersAreOffInARun(t *testing.T) {
	if m := ExecConfig(map[string]any{"lsp": true}, nil); m["lsp"] != false {
		t.Errorf(`"lsp": true in a run = %v, want false (built-ins start outside the scope)`, m["lsp"])
	}
	if m := ExecConfig(map[string]any{}, nil); m["lsp"] != nil {
		t.Errorf(`no "lsp" in a run = %v, want it left unset (off in 1.18)`, m["lsp"])
	}
	m := ExecConfig(map[string]any{"lsp": map[string]any{
		"gopls":   map[string]any{"command": []any{"gopls", "serve"}},
		"pyright": map[string]any{"env": map[string]any{"A": "1"}},
	}}, nil)
	lsp := m["lsp"].(map[string]any)
	for _, id := range []string{"typescript", "biome", "pyright", "rust"} {
		if e, _ := lsp[id].(map[string]any); e["disabled"] != true {
			t.Errorf("built-in %s in a run = %v, want disabled", id, lsp[id])
		}
	}
	if e := lsp["gopls"].(map[string]any); e["disabled"] != nil || e["command"] == nil {
		t.Errorf("the person's own gopls command = %v, want it kept", e)
	}
}
