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

// The project's .mcp.json servers the person approved start through the
// system shell, as local servers of the run of the same name; the managed
// policy rejects every .mcp.json name, so Claude Code starts none as the
// file has it. The repository's own settings cannot approve a server.
func TestTheProjectsApprovedServersStartThroughTheShell(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home, ws, policy := t.TempDir(), t.TempDir(), t.TempDir()
	put(t, filepath.Join(home, ".claude", "settings.json"), `{"enabledMcpjsonServers": ["ok"]}`)
	put(t, filepath.Join(ws, ".mcp.json"), `{"mcpServers": {"ok": {"command": "node", "args": ["ok.js"]}, "new": {"command": "node", "args": ["new.js"]}}}`)
	put(t, filepath.Join(ws, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
	state := filepath.Join(t.TempDir(), "c")
	a := New(Options{Mode: Interactive, Sentinel: "/bin/true"})
	n, err := a.Prepare(RunPaths{Home: home, Workspace: ws, StateDir: state, Placed: true, PolicyDir: policy})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := readSettings(filepath.Join(state, ".claude.json"))
	if err != nil {
		t.Fatal(err)
	}
	local, _ := cfg["projects"].(map[string]any)[ws].(map[string]any)["mcpServers"].(map[string]any)
	ok, _ := local["ok"].(map[string]any)
	if ok["command"] != agentutil.ScopeShell || !reflect.DeepEqual(ok["args"], []any{"-c", agentutil.ScopeScript, "node", "ok.js"}) {
		t.Errorf("the approved server = %v, want node ok.js through %s", ok, agentutil.ScopeShell)
	}
	if _, set := local["new"]; set {
		t.Errorf("a server the person did not approve became a local server: %v", local["new"])
	}
	managed, err := readSettings(n.Places[ManagedSettingsPath])
	if err != nil {
		t.Fatal(err)
	}
	if got := managed["disabledMcpjsonServers"]; !reflect.DeepEqual(got, []any{"new", "ok"}) {
		t.Errorf("managed disabledMcpjsonServers = %v, want [new ok]", got)
	}
}
