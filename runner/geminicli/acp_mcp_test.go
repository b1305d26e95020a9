package geminicli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/acp"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

func writePersonFile(t *testing.T, home, rel, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700)
	if err := os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Gemini trusts the workspace only when the sandbox hides its .gemini/:
// made when missing, hidden, and the trust variable set; elsewhere, or when
// .gemini is not a directory, the workspace stays untrusted and a note says
// the person's MCP servers are not started.
func TestACPTrustsOnlyAHiddenWorkspaceGeminiDir(t *testing.T) {
	home := t.TempDir()
	writePersonFile(t, home, geminiSettings, `{"mcpServers": {"files": {"command": "srv", "trust": true}, "far": {"httpUrl": "https://mcp.example.com/mcp"}}, "policyPaths": ["/p/allow.toml"]}`)
	var state string // the last prepare's per-run home
	prepare := func(ws string, contained bool) (*acp.Adapter, acp.Needs) {
		t.Helper()
		a, _ := acp.New([]string{"gemini", "--acp"}, &acpGuest)
		a.SetRun(acp.RunSetup{Sentinel: "/opt/sentinel", Socket: "/run/broker.sock", Workspace: ws, Contained: contained})
		state = filepath.Join(t.TempDir(), "agent")
		n, err := a.Prepare(home, state, "")
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
	s, _ := readJSONC(filepath.Join(state, geminiSettings))
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
	s, _ = readJSONC(filepath.Join(state, geminiSettings))
	srv := s["mcpServers"].(map[string]any)["files"].(map[string]any)
	args, _ := agentutil.StringList(srv["args"])
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
