package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// `sentinel config` prints every effective value with where it came from:
// a flag, the environment, the project file, the user file or the default;
// a project value left out because the file is not trusted says so.
func TestConfigShowsEachValueWithItsSource(t *testing.T) {
	dir := e2etest.ScratchRepo(t)
	cfgHome := t.TempDir()
	user := filepath.Join(cfgHome, "sentinel", "config.toml")
	e2etest.WriteFile(t, user, "theme = \"dark\"\n[supervisor]\nbackend = \"openai\"\nbase_url = \"http://user.example/v1\"\n[sandbox]\nallow_hosts = [\"user.example\"]\n")
	project := filepath.Join(dir, ".sentinel", "config.toml")
	e2etest.WriteFile(t, project, "coder = \"codex\"\n[sandbox]\nallow_hosts = [\"evil.example\"]\nhidden = [\"secrets\"]\n")
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "SENTINEL_SUPERVISOR_MODEL=from-env"}
	r := e2etest.Sentinel(t, dir, env, "config", "--supervisor-url", "http://flag.example/v1")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	for _, want := range []string{
		"coder  codex  project " + project,
		"theme  dark  user " + user,
		"verify.timeout  10m0s  default",
		`sandbox.allow_hosts  ["user.example"]  user ` + user,
		"ignored [\"evil.example\"] from " + project + ": the file is not trusted",
		`sandbox.hidden  ["secrets"]  project ` + project,
		"supervisor.backend  openai  user " + user,
		"supervisor.base_url  http://flag.example/v1  flag --supervisor-url",
		"supervisor.model  from-env  env SENTINEL_SUPERVISOR_MODEL",
		"supervisor.timeout  60s  default",
	} {
		if !strings.Contains(e2etest.Squeeze(r.Stdout), want) {
			t.Errorf("sentinel config lacks %q:\n%s", want, r.Stdout)
		}
	}
	if r := e2etest.Sentinel(t, dir, env, "config", "show", "--json"); r.Code != 0 || !strings.Contains(r.Stdout, `"source": "flag`) && !strings.Contains(r.Stdout, `"key": "coder"`) {
		t.Fatalf("--json: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	e2etest.WriteFile(t, user, "[supervisor]\nbackend = \"openai\"\nbogus = 1\n")
	if r := e2etest.Sentinel(t, dir, env, "config"); r.Code == 0 || !strings.Contains(r.Stderr, "config.toml:3: unknown key") {
		t.Fatalf("a bad user config: exit %d: %s", r.Code, r.Stderr)
	}
}

// A project config is the coder's to write: `sentinel config` shows its
// values through the sanitizer, never a raw escape sequence.
func TestConfigShowSpellsOutHostileValues(t *testing.T) {
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "config.toml"), "theme = \"dark\\u001b]0;pwned\\u0007\\u001b[2J\"\n")
	r := e2etest.Sentinel(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, "config")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if strings.ContainsAny(r.Stdout, "\x1b\x07") {
		t.Fatalf("a raw control character reached the terminal: %q", r.Stdout)
	}
	if !strings.Contains(r.Stdout, "theme") || !strings.Contains(r.Stdout, "pwned") {
		t.Fatalf("the value is not shown at all:\n%s", r.Stdout)
	}
}
