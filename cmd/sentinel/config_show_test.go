package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// `sentinel config` prints every effective value with where it came from:
// a flag, the environment, the project file, the user file or the default;
// a project value left out because the file is not trusted says so.
func TestConfigShowsEachValueWithItsSource(t *testing.T) {
	dir := scratchRepo(t)
	cfgHome := t.TempDir()
	user := filepath.Join(cfgHome, "sentinel", "config.toml")
	writeFile(t, user, "theme = \"dark\"\n[supervisor]\nbackend = \"openai\"\nbase_url = \"http://user.example/v1\"\n[sandbox]\nallow_hosts = [\"user.example\"]\n")
	project := filepath.Join(dir, ".sentinel", "config.toml")
	writeFile(t, project, "coder = \"codex\"\n[sandbox]\nallow_hosts = [\"evil.example\"]\nhidden = [\"secrets\"]\n")
	env := []string{"XDG_CONFIG_HOME=" + cfgHome, "SENTINEL_SUPERVISOR_MODEL=from-env"}
	r := sentinel(t, dir, env, "config", "--supervisor-url", "http://flag.example/v1")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
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
		if !strings.Contains(squeeze(r.stdout), want) {
			t.Errorf("sentinel config lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := sentinel(t, dir, env, "config", "show", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"source": "flag`) && !strings.Contains(r.stdout, `"key": "coder"`) {
		t.Fatalf("--json: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	writeFile(t, user, "[supervisor]\nbackend = \"openai\"\nbogus = 1\n")
	if r := sentinel(t, dir, env, "config"); r.code == 0 || !strings.Contains(r.stderr, "config.toml:3: unknown key") {
		t.Fatalf("a bad user config: exit %d: %s", r.code, r.stderr)
	}
}

// A project config is the coder's to write: `sentinel config` shows its
// values through the sanitizer, never a raw escape sequence.
func TestConfigShowSpellsOutHostileValues(t *testing.T) {
	dir := scratchRepo(t)
	writeFile(t, filepath.Join(dir, ".sentinel", "config.toml"), "theme = \"dark\\u001b]0;pwned\\u0007\\u001b[2J\"\n")
	r := sentinel(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, "config")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\x1b\x07") {
		t.Fatalf("a raw control character reached the terminal: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, "theme") || !strings.Contains(r.stdout, "pwned") {
		t.Fatalf("the value is not shown at all:\n%s", r.stdout)
	}
}
