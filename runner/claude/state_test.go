package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

func TestSeedConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude.json")
	writeFile(t, path, `{"theme":"light","projects":{"/other":{"allowedTools":["x"]}},
		"customApiKeyResponses":{"approved":["abcdefghij0123456789"],"rejected":["r"]}}`)
	key := "sk-ant-xxxxxxxxxxxxxxxxxxxxabcdefghij0123456789"
	for i := 0; i < 2; i++ { // seeding twice changes nothing more
		if err := SeedConfig(path, "/ws", key); err != nil {
			t.Fatal(err)
		}
	}
	m := readJSON(t, path)
	if m["theme"] != "light" || m["hasCompletedOnboarding"] != true {
		t.Errorf("top level = %v", m)
	}
	projects := m["projects"].(map[string]any)
	if projects["/ws"].(map[string]any)["hasTrustDialogAccepted"] != true || projects["/other"] == nil {
		t.Errorf("projects = %v", projects)
	}
	resp := m["customApiKeyResponses"].(map[string]any)
	if approved := resp["approved"].([]any); len(approved) != 1 || approved[0] != "abcdefghij0123456789" || len(resp["rejected"].([]any)) != 1 {
		t.Errorf("customApiKeyResponses = %v", resp)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}

	writeFile(t, path, "{not json")
	if err := SeedConfig(path, "/ws", ""); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("SeedConfig on a broken file = %v, want an error naming it", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "{not json" {
		t.Error("a broken state file was overwritten")
	}
}

func TestPrepareConfigDir(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".claude.json"), `{"theme":"dark"}`)
	writeFile(t, filepath.Join(home, ".claude", ".credentials.json"), `{"token":"t"}`)
	run := filepath.Join(t.TempDir(), "claude")
	a := New(Options{ConfigDir: run})
	if err := a.PrepareConfigDir(home, "/ws", ""); err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, filepath.Join(run, ".claude.json"))
	if m["theme"] != "dark" || m["hasCompletedOnboarding"] != nil {
		t.Errorf("run state = %v (no key given: onboarding untouched)", m)
	}
	if b, _ := os.ReadFile(filepath.Join(run, ".credentials.json")); string(b) != `{"token":"t"}` {
		t.Errorf("credentials not copied: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".claude.json")); string(b) != `{"theme":"dark"}` {
		t.Errorf("the person's file changed: %s", b)
	}
	env := strings.Join(a.Env(), " ")
	if !strings.Contains(env, "CLAUDE_CONFIG_DIR="+run) {
		t.Errorf("Env = %s", env)
	}
	if got := a.StatePaths(home); len(got) != 1 || got[0] != run {
		t.Errorf("StatePaths = %q, want only the run's config dir", got)
	}
	if strings.Contains(strings.Join(a.PassEnv(), " "), "CLAUDE_CONFIG_DIR") {
		t.Error("PassEnv passes the person's CLAUDE_CONFIG_DIR over the run's")
	}
	if err := New(Options{}).PrepareConfigDir(home, "/ws", ""); err == nil {
		t.Error("PrepareConfigDir without a ConfigDir succeeded")
	}
}

func TestPrepareGivesTheSandboxOneStateDir(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9999")
	home, state := t.TempDir(), filepath.Join(t.TempDir(), "claude")
	a := New(Options{Binary: "/usr/bin/claude"})
	n, err := a.Prepare(RunPaths{Home: home, Workspace: "/ws", StateDir: state, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Writable) != 1 || n.Writable[0] != state {
		t.Errorf("Writable = %q, want only %s", n.Writable, state)
	}
	if len(n.AllowHosts) != 1 || n.AllowHosts[0] != "127.0.0.1:9999" {
		t.Errorf("AllowHosts = %q", n.AllowHosts)
	}
	if !strings.Contains(strings.Join(a.Env(), " "), "CLAUDE_CONFIG_DIR="+state) {
		t.Errorf("Env after Prepare = %q", a.Env())
	}
	if m := readJSON(t, filepath.Join(state, ".claude.json")); m["hasCompletedOnboarding"] != true {
		t.Errorf("state not seeded: %v", m)
	}
	if !strings.Contains(strings.Join(n.DropEnv, " "), "CLAUDE_CODE_SIMPLE") {
		t.Errorf("DropEnv = %q", n.DropEnv)
	}
}
