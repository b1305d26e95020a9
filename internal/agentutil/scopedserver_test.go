package agentutil

import (
	"reflect"
	"testing"
)

// Each stdio server starts through the system shell with its own argv;
// servers without a command, and those already scoped, are left alone.
func TestStdioServersStartThroughTheShell(t *testing.T) {
	servers := map[string]any{
		"notes":  map[string]any{"command": "npx", "args": []any{"-y", "notes-mcp"}, "env": map[string]any{"K": "v"}},
		"bare":   map[string]any{"command": "/opt/srv"},
		"remote": map[string]any{"type": "http", "url": "https://x"},
		"again":  map[string]any{"command": ScopeShell, "args": []any{"-c", ScopeScript, "srv"}},
	}
	if n := ScopeCommandServers(servers); n != 2 {
		t.Errorf("rewrote %d servers, want 2", n)
	}
	want := map[string]any{"command": ScopeShell, "args": []any{"-c", ScopeScript, "npx", "-y", "notes-mcp"}, "env": map[string]any{"K": "v"}}
	if got := servers["notes"]; !reflect.DeepEqual(got, want) {
		t.Errorf("notes = %v, want %v", got, want)
	}
	if got := servers["bare"].(map[string]any)["args"]; !reflect.DeepEqual(got, []any{"-c", ScopeScript, "/opt/srv"}) {
		t.Errorf("bare args = %v", got)
	}
	if _, set := servers["remote"].(map[string]any)["command"]; set {
		t.Errorf("a remote server got a command")
	}
	if got := servers["again"].(map[string]any)["args"]; !reflect.DeepEqual(got, []any{"-c", ScopeScript, "srv"}) {
		t.Errorf("a scoped server was scoped twice: %v", got)
	}
	lsp := map[string]any{"go": map[string]any{"command": []any{"gopls", "serve"}}, "off": map[string]any{"disabled": true}}
	if n := ScopeArgvServers(lsp); n != 1 || !reflect.DeepEqual(lsp["go"].(map[string]any)["command"], []any{ScopeShell, "-c", ScopeScript, "gopls", "serve"}) {
		t.Errorf("argv servers: %d rewritten, %v", n, lsp)
	}
}

// Outside Linux /bin/sh is not Sentinel's wrapper (and Windows has none),
// so servers are left as they are.
func TestStdioServersAreKeptOutsideLinux(t *testing.T) {
	old := scopeOS
	scopeOS = "windows"
	defer func() { scopeOS = old }()
	servers := map[string]any{"notes": map[string]any{"command": "npx", "args": []any{"-y", "notes-mcp"}}}
	if n := ScopeCommandServers(servers); n != 0 {
		t.Errorf("rewrote %d servers on windows, want 0", n)
	}
	lsp := map[string]any{"go": map[string]any{"command": []any{"gopls", "serve"}}}
	if n := ScopeArgvServers(lsp); n != 0 {
		t.Errorf("rewrote %d argv servers on windows, want 0", n)
	}
	if got := ScopedArgv([]string{"srv"}); len(got) != 1 {
		t.Errorf("ScopedArgv on windows = %q", got)
	}
}
