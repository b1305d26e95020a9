package acp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writePersonFile(t *testing.T, home, rel, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700)
	if err := os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// opencode's local servers run behind the gate, enabled as the person set
// them; remote ones are kept off with a note.
func TestOpencodeMCPServersRunBehindTheGate(t *testing.T) {
	home := t.TempDir()
	writePersonFile(t, home, opencodeConfig, `{"mcp": {
  "files": {"type": "local", "command": ["npx", "-y", "files-mcp", "--root", "."]},
  "off": {"type": "local", "command": ["srv"], "enabled": false},
  "far": {"type": "remote", "url": "https://mcp.example.com/mcp"},
  "odd": {"type": "local", "command": "not-a-list"}
}}`)
	a, _ := New([]string{"opencode", "acp"})
	a.SetRun(RunSetup{Sentinel: "/opt/sentinel", Socket: "/run/broker.sock", Workspace: t.TempDir()})
	state := filepath.Join(t.TempDir(), "agent")
	if _, err := a.Prepare(home, state, ""); err != nil {
		t.Fatal(err)
	}
	cfg, err := readJSONC(filepath.Join(state, opencodeConfig))
	if err != nil {
		t.Fatal(err)
	}
	mcp := cfg["mcp"].(map[string]any)
	files := mcp["files"].(map[string]any)
	cmd, _ := stringList(files["command"])
	want := []string{"/opt/sentinel", "mcp-gate", "--server", "files", "--socket", "/run/broker.sock", "--adapter", "opencode", "--", "npx", "-y", "files-mcp", "--root", "."}
	if !slices.Equal(cmd, want) || files["enabled"] == false {
		t.Errorf("files = %v, want command %q and enabled", files, want)
	}
	if off := mcp["off"].(map[string]any); off["enabled"] != false {
		t.Errorf("the person's disabled server was enabled: %v", off)
	}
	for _, name := range []string{"far", "odd"} {
		if s := mcp[name].(map[string]any); s["enabled"] != false {
			t.Errorf("%s = %v, want disabled", name, s)
		}
	}
	notes := strings.Join(a.Notes(), "\n")
	if !strings.Contains(notes, `remote MCP server "far" is kept off`) || !strings.Contains(notes, `"odd" is kept off`) || strings.Contains(notes, `"off"`) {
		t.Errorf("notes:\n%s", notes)
	}
}

// Without a gate every opencode MCP server is kept off.
func TestOpencodeMCPServersOffWithoutAGate(t *testing.T) {
	home := t.TempDir()
	writePersonFile(t, home, opencodeConfig, `{"mcp": {"files": {"type": "local", "command": ["srv"]}}}`)
	a, _ := New([]string{"opencode", "acp"})
	state := filepath.Join(t.TempDir(), "agent")
	if _, err := a.Prepare(home, state, ""); err != nil {
		t.Fatal(err)
	}
	cfg, _ := readJSONC(filepath.Join(state, opencodeConfig))
	if s := cfg["mcp"].(map[string]any)["files"].(map[string]any); s["enabled"] != false {
		t.Errorf("files = %v, want disabled", s)
	}
}

// Gemini trusts the workspace only when the sandbox hides its .gemini/:
// made when missing, hidden, and the trust variable set; elsewhere, or when
// .gemini is not a directory, the workspace stays untrusted and a note says
// the person's MCP servers are not started.
func TestGeminiTrustsOnlyAHiddenWorkspaceGeminiDir(t *testing.T) {
	home := t.TempDir()
	writePersonFile(t, home, geminiSettings, `{"mcpServers": {"files": {"command": "srv", "trust": true}, "far": {"httpUrl": "https://mcp.example.com/mcp"}}, "policyPaths": ["/p/allow.toml"]}`)
	prepare := func(ws string, contained bool) (*Adapter, Needs) {
		t.Helper()
		a, _ := New([]string{"gemini", "--acp"})
		a.SetRun(RunSetup{Sentinel: "/opt/sentinel", Socket: "/run/broker.sock", Workspace: ws, Contained: contained})
		n, err := a.Prepare(home, filepath.Join(t.TempDir(), "agent"), "")
		if err != nil {
			t.Fatal(err)
		}
		return a, n
	}
	ws := t.TempDir()
	a, n := prepare(ws, true)
	if st, err := os.Stat(filepath.Join(ws, ".gemini")); err != nil || !st.IsDir() {
		t.Fatalf("no .gemini made in the workspace: %v", err)
	}
	if !slices.Contains(n.Hidden, filepath.Join(ws, ".gemini")) || !slices.Contains(a.Env(), "GEMINI_CLI_TRUST_WORKSPACE=true") {
		t.Errorf("hidden %v, env %v", n.Hidden, a.Env())
	}
	if notes := a.Notes(); len(notes) != 1 || !strings.Contains(notes[0], `remote MCP server "far" is kept off`) {
		t.Errorf("notes: %q", notes)
	}
	s, _ := readJSONC(filepath.Join(a.home, geminiSettings))
	if _, ok := s["mcpServers"].(map[string]any)["far"]; ok {
		t.Errorf("the remote server was kept: %v", s["mcpServers"])
	}
	a, n = prepare(t.TempDir(), false)
	if len(n.Hidden) != 0 || !slices.Contains(a.Env(), "GEMINI_CLI_TRUST_WORKSPACE=false") || len(a.Notes()) != 2 {
		t.Errorf("uncontained: hidden %v, env %v, notes %q", n.Hidden, a.Env(), a.Notes())
	}
	ws = t.TempDir()
	os.MkdirAll(filepath.Join(ws, "elsewhere"), 0o755)
	os.Symlink("elsewhere", filepath.Join(ws, ".gemini"))
	a, n = prepare(ws, true)
	if len(n.Hidden) != 0 || !slices.Contains(a.Env(), "GEMINI_CLI_TRUST_WORKSPACE=false") || !strings.Contains(strings.Join(a.Notes(), ""), "not a directory") {
		t.Errorf("symlinked .gemini: hidden %v, env %v, notes %q", n.Hidden, a.Env(), a.Notes())
	}
	// The person's server itself comes along untrusted, behind the gate.
	s, _ = readJSONC(filepath.Join(a.home, geminiSettings))
	srv := s["mcpServers"].(map[string]any)["files"].(map[string]any)
	args, _ := stringList(srv["args"])
	want := []string{"mcp-gate", "--server", "files", "--socket", "/run/broker.sock", "--adapter", "gemini", "--", "srv"}
	if srv["trust"] != false || srv["command"] != "/opt/sentinel" || !slices.Equal(args, want) {
		t.Errorf("server = %v", srv)
	}
	if adv := s["advanced"].(map[string]any); adv["ignoreLocalEnv"] != true {
		t.Errorf("advanced = %v", adv)
	}
	if _, ok := s["policyPaths"]; ok {
		t.Errorf("the person's policy files kept: %v", s["policyPaths"])
	}
}
