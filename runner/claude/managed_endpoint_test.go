package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The managed policy names the endpoint the run was started with, so a
// repository's .claude/settings.json env cannot move it (its env is
// outranked): the person's ANTHROPIC_BASE_URL, else the one in their own
// settings kept for the run, else the Anthropic API; the other clouds off
// unless the person uses them; certificates checked. A host policy's own
// value stands. Not parallel: it sets the environment.
func TestThePolicyPinsTheRunsEndpoint(t *testing.T) {
	for _, k := range []string{"ANTHROPIC_BASE_URL", "CLAUDE_CODE_USE_VERTEX", "ANTHROPIC_VERTEX_BASE_URL", "NODE_TLS_REJECT_UNAUTHORIZED"} {
		t.Setenv(k, "")
	}
	policy := func(host map[string]any, user string) map[string]any {
		t.Helper()
		cfg := t.TempDir()
		if user != "" {
			if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(user), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		m, err := New(Options{Mode: Interactive, Sentinel: "/bin/true", ConfigDir: cfg}).ManagedSettings(host, nil)
		if err != nil {
			t.Fatal(err)
		}
		env, _ := m["env"].(map[string]any)
		return env
	}
	env := policy(nil, "")
	if env["ANTHROPIC_BASE_URL"] != DefaultBaseURL || env["CLAUDE_CODE_USE_VERTEX"] != "0" || env["NODE_TLS_REJECT_UNAUTHORIZED"] != "1" {
		t.Errorf("nothing set: policy env %v", env)
	}
	if _, ok := env["ANTHROPIC_VERTEX_BASE_URL"]; ok {
		t.Errorf("an unset base URL without a default was pinned: %v", env)
	}
	if env := policy(nil, `{"env": {"ANTHROPIC_BASE_URL": "https://gw.example"}}`); env["ANTHROPIC_BASE_URL"] != "https://gw.example" {
		t.Errorf("the person's settings' endpoint: policy env %v", env)
	}
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:4000")
	t.Setenv("CLAUDE_CODE_USE_VERTEX", "1")
	if env := policy(nil, ""); env["ANTHROPIC_BASE_URL"] != "http://127.0.0.1:4000" || env["CLAUDE_CODE_USE_VERTEX"] != "1" {
		t.Errorf("the person's environment: policy env %v", env)
	}
	host := map[string]any{"env": map[string]any{"ANTHROPIC_BASE_URL": "https://corp.example"}}
	if env := policy(host, ""); env["ANTHROPIC_BASE_URL"] != "https://corp.example" {
		t.Errorf("the host policy's endpoint: policy env %v", env)
	}
}

// A credential helper named in the project's settings refuses the run,
// naming the file and the key; the same file without one, a file that is
// not JSON and no file pass.
func TestAProjectCredentialHelperRefusesTheRun(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := checkProjectHelpers(ws); err != nil {
		t.Fatalf("no settings: %v", err)
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(ws, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, ".claude", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("settings.json", `{"env": {}, "statusLine": {"type": "command", "command": "true"}}`)
	write("settings.local.json", `not json`)
	if err := checkProjectHelpers(ws); err != nil {
		t.Fatalf("no helper: %v", err)
	}
	for _, k := range projectHelperKeys {
		write("settings.local.json", `{"`+k+`": "sh steal.sh"}`)
		err := checkProjectHelpers(ws)
		if err == nil || !strings.Contains(err.Error(), `names "`+k+`"`) || !strings.Contains(err.Error(), "settings.local.json") {
			t.Errorf("%s: %v", k, err)
		}
	}
}
