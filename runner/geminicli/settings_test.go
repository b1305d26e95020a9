package geminicli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/acp"
)

// Every Gemini setting that would let an action run without a permission
// request is forced; the rest is kept.
func TestForceSettings(t *testing.T) {
	m := ForceSettings(map[string]any{
		"general":     map[string]any{"defaultApprovalMode": "yolo", "vimMode": true},
		"tools":       map[string]any{"allowed": []any{"run_shell_command"}, "discoveryCommand": "x", "callCommand": "y", "sandbox": "docker"},
		"security":    map[string]any{"disableYoloMode": false, "auth": map[string]any{"selectedType": "gemini-api-key"}},
		"hooks":       map[string]any{"BeforeTool": []any{}},
		"hooksConfig": map[string]any{"enabled": true},
		"mcpServers":  map[string]any{"s": map[string]any{"command": "srv", "trust": true}},
		"autoAccept":  true, "allowedTools": []any{"x"}, "model": map[string]any{"name": "m"},
		// the person's still screen (display only): no spinner, no phrases
		"ui": map[string]any{"showSpinner": false, "loadingPhrases": "off", "accessibility": map[string]any{"screenReader": true}},
	})
	if ui, _ := m["ui"].(map[string]any); ui["showSpinner"] != false || ui["loadingPhrases"] != "off" ||
		ui["accessibility"].(map[string]any)["screenReader"] != true {
		t.Errorf("the person's ui settings were not kept: %v", m["ui"])
	}
	g, tools, sec := m["general"].(map[string]any), m["tools"].(map[string]any), m["security"].(map[string]any)
	if g["defaultApprovalMode"] != "default" || g["vimMode"] != true {
		t.Errorf("general = %v", g)
	}
	for _, k := range []string{"allowed", "discoveryCommand", "callCommand"} {
		if _, ok := tools[k]; ok {
			t.Errorf("tools.%s kept", k)
		}
	}
	if tools["sandbox"] != false || sec["disableYoloMode"] != true || sec["auth"] == nil {
		t.Errorf("tools %v security %v", tools, sec)
	}
	if _, ok := m["hooks"]; ok || m["hooksConfig"].(map[string]any)["enabled"] != false {
		t.Errorf("hooks %v %v", m["hooks"], m["hooksConfig"])
	}
	if s := m["mcpServers"].(map[string]any)["s"].(map[string]any); s["trust"] != false || s["command"] != "srv" {
		t.Errorf("mcp server = %v", s)
	}
	if _, ok := m["autoAccept"]; ok || m["model"] == nil {
		t.Errorf("legacy autoAccept kept or model dropped: %v", m)
	}
}

// Over ACP, Prepare copies logins, rewrites settings, appends Sentinel's
// text to the person's GEMINI.md and keeps every rewritten file read-only;
// the person's files are not changed.
func TestACPPrepareBringsThePersonsSetup(t *testing.T) {
	home, state := t.TempDir(), filepath.Join(t.TempDir(), "agent")
	files := map[string]string{
		".gemini/settings.json":    `{"general": {"defaultApprovalMode": "yolo"}, // mine` + "\n}",
		".gemini/GEMINI.md":        "person's gemini rules",
		".gemini/oauth_creds.json": `{"token": "t"}`,
	}
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(home, name)), 0o700)
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := acp.New([]string{"gemini", "--acp"}, &acpGuest)
	n, err := a.Prepare(home, state, "WHERE-AM-I")
	if err != nil {
		t.Fatal(err)
	}
	read := func(rel string) string { b, _ := os.ReadFile(filepath.Join(state, rel)); return string(b) }
	if g := read(".gemini/GEMINI.md"); !strings.HasPrefix(g, "person's gemini rules") || !strings.Contains(g, "WHERE-AM-I") {
		t.Errorf("GEMINI.md = %q", g)
	}
	if s := read(".gemini/settings.json"); !strings.Contains(s, `"defaultApprovalMode": "default"`) {
		t.Errorf("settings = %s", s)
	}
	if read(".gemini/oauth_creds.json") != `{"token": "t"}` {
		t.Error("logins not copied")
	}
	for _, rel := range []string{".gemini/settings.json", ".gemini/GEMINI.md"} {
		if !slices.Contains(n.Protected, filepath.Join(state, rel)) {
			t.Errorf("%s is not protected: %q", rel, n.Protected)
		}
	}
	for name, body := range files {
		if b, _ := os.ReadFile(filepath.Join(home, name)); string(b) != body {
			t.Errorf("the person's %s changed", name)
		}
	}
	bad := t.TempDir()
	os.MkdirAll(filepath.Join(bad, ".gemini"), 0o700)
	os.WriteFile(filepath.Join(bad, ".gemini", "settings.json"), []byte("{nope"), 0o600)
	if _, err := a.Prepare(bad, t.TempDir(), ""); err == nil || !strings.Contains(err.Error(), "settings.json") {
		t.Errorf("Prepare with broken settings = %v, want an error naming the file", err)
	}
}
