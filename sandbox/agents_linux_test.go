package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Two agents' needs as their folders declare them (runner/claude,
// runner/codex: the registry's test checks theirs against the sandbox).
var (
	claudeNeeds = AgentNeeds{
		Copy:    []string{".claude.json", ".claude/.credentials.json"},
		DirEnv:  "CLAUDE_CONFIG_DIR",
		Dir:     ".claude",
		PassEnv: []string{"ANTHROPIC_API_KEY"},
	}
	codexNeeds = AgentNeeds{
		Copy:    []string{".codex/auth.json", ".codex/config.toml", ".codex/AGENTS.md"},
		DirEnv:  "CODEX_HOME",
		Dir:     ".codex",
		PassEnv: []string{"OPENAI_API_KEY"},
		MoreEnv: func(runHome string) []string {
			if b, _ := os.ReadFile(filepath.Join(runHome, ".codex", "config.toml")); strings.Contains(string(b), "GW_PASS") {
				return []string{"GW_PASS"}
			}
			return nil
		},
	}
)

// WithAgent grants the per-run home and nothing of the real one, copies the
// agent's files from where the agent keeps them, and moves HOME.
func TestWithAgentUsesAPerRunHome(t *testing.T) {
	home, runHome, confDir := t.TempDir(), t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(home, ".codex", "auth.json"), "home-auth")
	mustWrite(t, filepath.Join(confDir, ".credentials.json"), "dir-login")
	mustWrite(t, filepath.Join(home, ".claude", ".credentials.json"), "home-login")
	t.Setenv("CLAUDE_CONFIG_DIR", confDir)
	t.Setenv("CODEX_HOME", "")

	p, err := Profile{Workspace: t.TempDir()}.WithAgent(claudeNeeds, home, runHome)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Writable, []string{runHome}) {
		t.Errorf("writable = %v, want only the per-run home", p.Writable)
	}
	if !slices.Contains(p.Env, "HOME="+runHome) || slices.Contains(p.PassEnv, "CLAUDE_CONFIG_DIR") {
		t.Errorf("env = %v, pass = %v: want HOME moved and CLAUDE_CONFIG_DIR not passed", p.Env, p.PassEnv)
	}
	if b, _ := os.ReadFile(filepath.Join(runHome, ".claude", ".credentials.json")); string(b) != "dir-login" {
		t.Errorf("the login was not copied from $CLAUDE_CONFIG_DIR: %q", b)
	}
	if st, err := os.Stat(filepath.Join(runHome, ".claude", ".credentials.json")); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the copied login: %v %v", st, err)
	}

	codexHome := t.TempDir()
	if _, err := (Profile{}).WithAgent(codexNeeds, home, codexHome); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(codexHome, ".codex", "auth.json")); string(b) != "home-auth" {
		t.Errorf("codex login not copied from home: %q", b)
	}
	if _, err := os.Stat(filepath.Join(codexHome, ".codex", "config.toml")); err == nil {
		t.Error("a file the person does not have appeared in the copy")
	}

	// More variables read from the copies (a person's own provider's
	// key: runner/codex reads its config.toml) pass; their global
	// instructions come along.
	mustWrite(t, filepath.Join(home, ".codex", "config.toml"), "model_provider = \"gw\"\n[model_providers.gw]\nbase_url = \"https://gw.example/v1\"\nenv_key = \"GW_PASS\"\n")
	mustWrite(t, filepath.Join(home, ".codex", "AGENTS.md"), "rules")
	p, err = (Profile{}).WithAgent(codexNeeds, home, t.TempDir())
	if err != nil || !slices.Contains(p.PassEnv, "GW_PASS") {
		t.Errorf("pass = %v (%v), want the variable MoreEnv names", p.PassEnv, err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Writable[0], ".codex", "AGENTS.md")); string(b) != "rules" {
		t.Errorf("AGENTS.md not copied: %q", b)
	}

	if _, err := (Profile{}).WithAgent(codexNeeds, home, ""); err == nil {
		t.Error("an agent's sandbox with no per-run home")
	}
}
