package geminicli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runSettings reads the per-run settings Prepare wrote.
func runSettings(t *testing.T, state string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The per-run home keeps the person's setup but runs only Sentinel's
// hooks, with hooks on and yolo allowed; their HOME is left alone.
func TestPrepareRunsOnlySentinelsHooks(t *testing.T) {
	home, state, project := t.TempDir(), t.TempDir(), t.TempDir()
	writeJSON(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
		"model":       map[string]any{"name": "their-model"},
		"hooks":       map[string]any{"BeforeTool": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "their-hook"}}}}},
		"hooksConfig": map[string]any{"enabled": false, "disabled": []any{"sentinel"}},
		"security":    map[string]any{"disableYoloMode": true},
		"tools":       map[string]any{"allowed": []any{"run_shell_command"}},
	})
	a := New(Options{Launch: []string{"gemini"}, Helper: "/opt/sentinel-helper"})
	needs, err := a.Prepare(RunPaths{Home: home, StateDir: state, Project: project, Socket: "/run/s.sock", Contained: true})
	if err != nil {
		t.Fatal(err)
	}
	m := runSettings(t, state)
	if b, _ := json.Marshal(m["hooks"]); strings.Contains(string(b), "their-hook") || !strings.Contains(string(b), "/opt/sentinel-helper hook gemini") {
		t.Errorf("hooks = %s", b)
	}
	if hc, _ := json.Marshal(m["hooksConfig"]); string(hc) != `{"enabled":true}` {
		t.Errorf("hooksConfig = %s", hc)
	}
	if sec := m["security"].(map[string]any); sec["disableYoloMode"] != false {
		t.Errorf("security = %v", sec)
	}
	if m["model"].(map[string]any)["name"] != "their-model" {
		t.Errorf("the person's model is gone: %v", m["model"])
	}
	if _, ok := m["tools"].(map[string]any)["allowed"]; ok {
		t.Errorf("their allowed tools are kept: %v", m["tools"])
	}
	if !slices.Contains(needs.Protected, filepath.Join(state, ".gemini", "settings.json")) || !slices.Contains(needs.Writable, state) {
		t.Errorf("needs = %+v", needs)
	}
	env := strings.Join(a.Env(), " ")
	if !strings.Contains(env, "GEMINI_CLI_HOME="+state) || !strings.Contains(env, "GEMINI_CLI_TRUST_WORKSPACE=true") || strings.Contains(env, "HOME="+home) {
		t.Errorf("env = %s", env)
	}
	argv, _ := a.Argv("")
	if strings.Join(argv, " ") != "gemini --approval-mode yolo" {
		t.Errorf("argv = %q", argv)
	}
}

// The project's .gemini/ is hidden inside the sandbox: made for the run when
// missing and removed after it; a .gemini that is not a directory cannot be
// hidden and refuses the run; without the sandbox the workspace stays
// untrusted and --skip-trust is refused.
func TestProjectGeminiDirIsHidden(t *testing.T) {
	prep := func(project string, contained bool, args ...string) (*Adapter, Needs, error) {
		a := New(Options{Launch: []string{"gemini"}, Args: args, Helper: "/opt/h"})
		n, err := a.Prepare(RunPaths{StateDir: t.TempDir(), Project: project, Socket: "/s", Contained: contained})
		return a, n, err
	}
	project := t.TempDir()
	dir := filepath.Join(project, ".gemini")
	a, n, err := prep(project, true)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || !slices.Contains(n.Hidden, dir) || !a.trusted {
		t.Fatalf("missing .gemini: made %v, hidden %v, trusted %v", err == nil, n.Hidden, a.trusted)
	}
	a.Cleanup()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the .gemini made for the run is left behind (%v)", err)
	}

	writeJSON(t, filepath.Join(dir, "settings.json"), map[string]any{"hooksConfig": map[string]any{"enabled": false}})
	a, n, err = prep(project, true)
	if err != nil || !slices.Contains(n.Hidden, dir) {
		t.Fatalf("existing .gemini: %v, hidden %v", err, n.Hidden)
	}
	a.Cleanup()
	if _, err := os.Stat(filepath.Join(dir, "settings.json")); err != nil {
		t.Errorf("the project's own .gemini was touched: %v", err)
	}

	other := t.TempDir()
	writeFile(t, filepath.Join(other, ".gemini"), "not a dir")
	if _, _, err := prep(other, true); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf(".gemini as a file: %v", err)
	}

	a, n, err = prep(project, false)
	if err != nil || a.trusted || len(n.Hidden) != 0 || !strings.Contains(strings.Join(a.Notes(), "\n"), "stays untrusted") {
		t.Errorf("without the sandbox: %v, trusted %v, hidden %v, notes %q", err, a.trusted, n.Hidden, a.Notes())
	}
	if _, _, err := prep(project, false, "--skip-trust", "-p", "x"); err == nil || !strings.Contains(err.Error(), "--skip-trust") {
		t.Errorf("--skip-trust without the sandbox: %v", err)
	}
}

// An administrator's settings that switch hooks off refuse the run.
func TestSystemSettingsThatSwitchHooksOff(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"off":      `{"hooksConfig": {"enabled": false}}`,
		"disabled": `{"hooksConfig": {"disabled": ["sentinel"]}} // with a comment`,
	} {
		p := filepath.Join(dir, name)
		writeFile(t, p, body)
		if err := checkSystemSettings(p); err == nil || !strings.Contains(err.Error(), "switch hooks off") {
			t.Errorf("%s: %v", name, err)
		}
	}
	ok := filepath.Join(dir, "ok")
	writeFile(t, ok, `{"hooksConfig": {"enabled": true}, "general": {}}`)
	for _, p := range []string{ok, filepath.Join(dir, "missing")} {
		if err := checkSystemSettings(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	bad := filepath.Join(dir, "bad")
	writeFile(t, bad, `{`)
	if err := checkSystemSettings(bad); err == nil {
		t.Error("unparsable system settings were taken as not switching hooks off")
	}
}

// The person's own approval mode is kept; otherwise yolo comes first.
func TestArgvApprovalMode(t *testing.T) {
	for _, tc := range []struct {
		args []string
		yolo bool
	}{
		{[]string{"-p", "fix it"}, true},
		{[]string{"--approval-mode", "default"}, false},
		{[]string{"--approval-mode=plan", "-p", "x"}, false},
		{[]string{"-y"}, false},
		{[]string{"--yolo"}, false},
		{[]string{"--", "--yolo"}, true},
	} {
		argv, _ := New(Options{Launch: []string{"node", "gemini.js"}, Args: tc.args}).Argv("")
		want := append([]string{"node", "gemini.js"}, tc.args...)
		if tc.yolo {
			want = append([]string{"node", "gemini.js", "--approval-mode", "yolo"}, tc.args...)
		}
		if !slices.Equal(argv, want) {
			t.Errorf("%q: argv %q, want %q", tc.args, argv, want)
		}
	}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
}

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
