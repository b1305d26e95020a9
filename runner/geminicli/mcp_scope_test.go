package geminicli

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// For sentinel exec, the person's stdio MCP servers start through the
// system shell in the run's settings, so in place each enters a signal
// scope: Gemini CLI starts them directly, in its own Landlock domain, from
// which they could kill a hook's shell, and Gemini then runs the call.
func TestTheRunsMCPServersStartThroughTheShell(t *testing.T) {
	home, abs := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, geminiSettings), `{"mcpServers": {"s": {"command": "node", "args": ["srv.js"]}, "web": {"httpUrl": "https://mcp.example/"}}}`)
	if _, _, err := prepareHome(home, abs, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	m, err := readJSONC(filepath.Join(abs, geminiSettings))
	if err != nil {
		t.Fatal(err)
	}
	s := m["mcpServers"].(map[string]any)["s"].(map[string]any)
	if s["command"] != agentutil.ScopeShell || !reflect.DeepEqual(s["args"], []any{"-c", agentutil.ScopeScript, "node", "srv.js"}) {
		t.Errorf("server s = %v, want node srv.js through %s", s, agentutil.ScopeShell)
	}
	if _, set := m["mcpServers"].(map[string]any)["web"].(map[string]any)["command"]; set {
		t.Errorf("the http server got a command")
	}
}
