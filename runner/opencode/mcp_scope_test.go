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
