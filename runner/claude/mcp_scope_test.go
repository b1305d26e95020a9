package claude

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// The person's stdio MCP servers (user and project entries of their
// ~/.claude.json) start through the system shell in the run's copy, so in
// place each enters a signal scope (Claude Code starts them directly, in
// its own Landlock domain, from which they could kill the hooks); the
// person's own file is not changed.
func TestTheRunsMCPServersStartThroughTheShell(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home, ws := t.TempDir(), t.TempDir()
	person := `{"mcpServers": {"s": {"command": "npx", "args": ["-y", "srv"]}, "web": {"type": "http", "url": "https://mcp.example/"}},
"projects": {"` + ws + `": {"mcpServers": {"p": {"type": "stdio", "command": "/opt/p"}}}}}`
	put(t, filepath.Join(home, ".claude.json"), person)
	state := filepath.Join(t.TempDir(), "c")
	a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
	if _, err := a.Prepare(RunPaths{Home: home, Workspace: ws, StateDir: state, KeepHistory: true}); err != nil {
		t.Fatal(err)
	}
	cfg, err := readSettings(filepath.Join(state, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	through := func(argv ...any) []any { return append([]any{"-c", agentutil.ScopeScript}, argv...) }
	s := cfg["mcpServers"].(map[string]any)["s"].(map[string]any)
	if s["command"] != agentutil.ScopeShell || !reflect.DeepEqual(s["args"], through("npx", "-y", "srv")) {
		t.Errorf("user server s = %v", s)
	}
	p := cfg["projects"].(map[string]any)[ws].(map[string]any)["mcpServers"].(map[string]any)["p"].(map[string]any)
	if p["command"] != agentutil.ScopeShell || !reflect.DeepEqual(p["args"], through("/opt/p")) {
		t.Errorf("project server p = %v", p)
	}
	if _, set := cfg["mcpServers"].(map[string]any)["web"].(map[string]any)["command"]; set {
		t.Errorf("the http server got a command")
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".claude.json")); string(b) != person {
		t.Errorf("the person's ~/.claude.json changed:\n%s", b)
	}
}
