package opencode

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/runner/acp"
)

// opencode's part of --coder acp is its entry's (Agent.ACP): these tests
// drive the ACP adapter with it, as sentinel run does.

func writePersonFile(t *testing.T, home, rel, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o700)
	if err := os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// `opencode acp` serves its own API on localhost, kept off the proxy, and is
// made to ask before every action whatever its settings say; other agents'
// commands are left as given.
func TestOpencodeArgvAndEnv(t *testing.T) {
	cases := []struct {
		argv     []string
		want     []string
		opencode bool
	}{
		{[]string{"opencode", "acp"}, []string{"opencode", "acp", "--hostname", "localhost"}, true},
		{[]string{"/usr/bin/opencode", "acp", "--print-logs"}, []string{"/usr/bin/opencode", "acp", "--hostname", "localhost", "--print-logs"}, true},
		{[]string{"opencode", "acp", "--hostname", "127.0.0.2"}, []string{"opencode", "acp", "--hostname", "127.0.0.2"}, true},
		{[]string{"opencode", "acp", "--hostname=::1"}, []string{"opencode", "acp", "--hostname=::1"}, true},
		{[]string{"opencode", "run", "x"}, []string{"opencode", "run", "x"}, false},
		{[]string{"gemini", "--acp"}, []string{"gemini", "--acp"}, false},
	}
	for _, c := range cases {
		a, err := acp.New(c.argv, Agent.ACP)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := a.Argv("task")
		if !slices.Equal(got, c.want) {
			t.Errorf("Argv(%q) = %q, want %q", c.argv, got, c.want)
		}
		env := strings.Join(a.Env(), "\n")
		for _, kv := range []string{"NO_PROXY=localhost", `OPENCODE_PERMISSION={"bash":"ask"`, "OPENCODE_DISABLE_PROJECT_CONFIG=1"} {
			if strings.Contains(env, kv) != c.opencode {
				t.Errorf("Env for %q has %s: %v, want %v", c.argv, kv, !c.opencode, c.opencode)
			}
		}
	}
}

// opencode's local servers run behind the gate, enabled as the person set
// them; remote ones are kept off with a note.
func TestOpencodeMCPServersRunBehindTheGate(t *testing.T) {
	home := t.TempDir()
	writePersonFile(t, home, acpConfig, `{"mcp": {
  "files": {"type": "local", "command": ["npx", "-y", "files-mcp", "--root", "."]},
  "off": {"type": "local", "command": ["srv"], "enabled": false},
  "far": {"type": "remote", "url": "https://mcp.example.com/mcp"},
  "odd": {"type": "local", "command": "not-a-list"}
}}`)
	a, _ := acp.New([]string{"opencode", "acp"}, Agent.ACP)
	a.SetRun(acp.RunSetup{Sentinel: "/opt/sentinel", Socket: "/run/broker.sock", Workspace: t.TempDir()})
	state := filepath.Join(t.TempDir(), "agent")
	if _, err := a.Prepare(home, state, ""); err != nil {
		t.Fatal(err)
	}
	cfg, err := agentutil.ReadJSONC(filepath.Join(state, acpConfig))
	if err != nil {
		t.Fatal(err)
	}
	mcp := cfg["mcp"].(map[string]any)
	files := mcp["files"].(map[string]any)
	cmd, _ := agentutil.StringList(files["command"])
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
	writePersonFile(t, home, acpConfig, `{"mcp": {"files": {"type": "local", "command": ["srv"]}}}`)
	a, _ := acp.New([]string{"opencode", "acp"}, Agent.ACP)
	state := filepath.Join(t.TempDir(), "agent")
	if _, err := a.Prepare(home, state, ""); err != nil {
		t.Fatal(err)
	}
	cfg, _ := agentutil.ReadJSONC(filepath.Join(state, acpConfig))
	if s := cfg["mcp"].(map[string]any)["files"].(map[string]any); s["enabled"] != false {
		t.Errorf("files = %v, want disabled", s)
	}
}

func TestForceACPConfig(t *testing.T) {
	m, notes := ForceACPConfig(map[string]any{
		"permission":   map[string]any{"bash": "allow"},
		"agent":        map[string]any{"build": map[string]any{"permission": map[string]any{"bash": "allow"}, "model": "x/y"}},
		"mode":         map[string]any{"build": map[string]any{"permission": map[string]any{"edit": "allow"}}},
		"plugin":       []any{"opencode-auto-approve"},
		"instructions": []any{"~/rules.md"},
		"mcp":          map[string]any{"s": map[string]any{"type": "local"}},
	}, "/run/home/where.md", nil)
	if len(notes) != 1 || !strings.Contains(notes[0], `"s" is kept off`) {
		t.Errorf("notes = %q", notes)
	}
	if p := m["permission"].(map[string]any); p["bash"] != "ask" || p["edit"] != "ask" {
		t.Errorf("permission = %v", p)
	}
	b := m["agent"].(map[string]any)["build"].(map[string]any)
	if _, ok := b["permission"]; ok || b["model"] != "x/y" {
		t.Errorf("agent build = %v", b)
	}
	if _, ok := m["mode"].(map[string]any)["build"].(map[string]any)["permission"]; ok {
		t.Error("mode permission kept")
	}
	if _, ok := m["plugin"]; ok {
		t.Errorf("plugin kept: %v", m)
	}
	if s := m["mcp"].(map[string]any)["s"].(map[string]any); s["enabled"] != false || s["type"] != "local" {
		t.Errorf("mcp server = %v, want kept but disabled", s)
	}
	if ins := m["instructions"].([]any); len(ins) != 2 || ins[1] != "/run/home/where.md" {
		t.Errorf("instructions = %v", ins)
	}
}

// The ACP home gets the person's login, rules and config (made to ask
// first, naming Sentinel's where-am-I text), each rewritten file kept
// read-only; the person's files are not changed.
func TestACPHomeBringsThePersonsSetup(t *testing.T) {
	home, state := t.TempDir(), filepath.Join(t.TempDir(), "agent")
	files := map[string]string{
		".config/opencode/opencode.json":  `{"model": "p/m"}`,
		".config/opencode/AGENTS.md":      "person's opencode rules",
		".local/share/opencode/auth.json": `{}`,
	}
	for name, body := range files {
		writePersonFile(t, home, name, body)
	}
	a, _ := acp.New([]string{"opencode", "acp"}, Agent.ACP)
	n, err := a.Prepare(home, state, "WHERE-AM-I")
	if err != nil {
		t.Fatal(err)
	}
	read := func(rel string) string { b, _ := os.ReadFile(filepath.Join(state, rel)); return string(b) }
	if read(".local/share/opencode/auth.json") != `{}` || read(".config/opencode/AGENTS.md") != "person's opencode rules" {
		t.Error("login or opencode rules not copied")
	}
	if s := read(acpConfig); !strings.Contains(s, "sentinel-whereami.md") || !strings.Contains(s, `"p/m"`) {
		t.Errorf("opencode.json = %s", s)
	}
	if !strings.Contains(read(acpWhereAmI), "WHERE-AM-I") {
		t.Error("no where-am-I text")
	}
	for _, rel := range []string{acpConfig, acpWhereAmI} {
		if !slices.Contains(n.Protected, filepath.Join(state, rel)) {
			t.Errorf("%s is not protected: %q", rel, n.Protected)
		}
	}
	for name, body := range files {
		if b, _ := os.ReadFile(filepath.Join(home, name)); string(b) != body {
			t.Errorf("the person's %s changed", name)
		}
	}
}
