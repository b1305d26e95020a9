package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// trust approves proj's config file as it is now, in a fresh state dir.
func trust(t *testing.T, proj string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	pf, err := ReadProject(proj)
	if err != nil {
		t.Fatal(err)
	}
	if err := Trust(pf); err != nil {
		t.Fatal(err)
	}
}

func TestProjectOverridesUser(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	proj := t.TempDir()
	write(t, filepath.Join(home, "sentinel", "config.toml"), "theme = \"light\"\ncoder = \"claude\"\n[verify]\ncommands = [\"make test\"]\n[sandbox]\nallow_hosts = [\"a.example\"]\n")
	write(t, filepath.Join(proj, ".sentinel", "config.toml"), "[verify]\ncommands = [\"go test ./...\", \"go vet ./...\"]\ntimeout = \"2m\"\n[sandbox]\nallow_hosts = [\"b.example:8443\"]\n")
	trust(t, proj)
	c, err := Load(proj)
	if err != nil {
		t.Fatal(err)
	}
	if c.Theme != "light" || c.Coder != "claude" || strings.Join(c.Verify.Commands, ";") != "go test ./...;go vet ./..." || c.VerifyTimeout() != 2*time.Minute {
		t.Fatalf("merged config = %+v", c)
	}
	if strings.Join(c.Sandbox.AllowHosts, ",") != "a.example,b.example:8443" {
		t.Fatalf("hosts = %v", c.Sandbox.AllowHosts)
	}
}

func TestBadFilesNameFileLineAndKey(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]struct{ body, want string }{
		"syntax":  {"theme = \"dark\"\ncoder = = 1\n", ":2:"},
		"unknown": {"theme = \"dark\"\n\n[verify]\ncommandz = [\"x\"]\n", `:4: unknown key "verify.commandz"`},
		"timeout": {"[verify]\ntimeout = \"soon\"\n", `:2: [verify] timeout "soon"`},
		"empty":   {"[verify]\ncommands = [\" \"]\n", ":2: [verify] commands has an empty command"},
		"type":    {"theme = 3\n", "config.toml"},
		// An unknown key that is a prefix of the key above it, and a key
		// whose name also appears in another table: the line is the key's own.
		"prefix":        {"[verify]\ncommands = [\"x\"]\ncommand = \"y\"\n", `:3: unknown key "verify.command"`},
		"other table":   {"[supervisor]\ntimeout = \"30s\"\n\n[verify] # checks\ntimeout = \"soon\"\n", `:5: [verify] timeout "soon"`},
		"dotted":        {"verify.commands = [\"x\"]\nverify.command = \"y\"\n", `:2: unknown key "verify.command"`},
		"unknown table": {"coder = \"demo\"\n[verifi]\ncommands = [\"x\"]\n", `:2: unknown key "verifi"`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name, "config.toml")
			write(t, p, c.body)
			_, err := LoadFile(p)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("err = %v, want it to name %s and contain %q", err, p, c.want)
			}
		})
	}
}

func TestMissingFilesAreFine(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c, err := Load(t.TempDir())
	if err != nil || c.VerifyTimeout() != 10*time.Minute {
		t.Fatalf("Load with no files: %+v %v", c, err)
	}
}

func TestSupervisorSectionsMerge(t *testing.T) {
	cases := []struct {
		name, user, project string
		backend, model      string
		timeout             string
	}{
		{"a project timeout keeps the user's backend", "[supervisor]\nbackend = \"anthropic\"\nmodel = \"m1\"\n", "[supervisor]\ntimeout = \"3s\"\n", "anthropic", "m1", "3s"},
		{"a project backend replaces the whole section", "[supervisor]\nbackend = \"anthropic\"\nmodel = \"m1\"\ntimeout = \"9s\"\n", "[supervisor]\nbackend = \"openai\"\n", "openai", "", ""},
		{"a timeout alone, backend from the flag", "", "[supervisor]\ntimeout = \"3s\"\n", "", "", "3s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", home)
			proj := t.TempDir()
			write(t, filepath.Join(home, "sentinel", "config.toml"), c.user)
			write(t, filepath.Join(proj, ".sentinel", "config.toml"), c.project)
			trust(t, proj)
			got, err := Load(proj)
			if err != nil {
				t.Fatal(err)
			}
			s := got.Supervisor
			if string(s.Backend) != c.backend || s.Model != c.model || s.Timeout != c.timeout {
				t.Fatalf("[supervisor] = %+v", s)
			}
		})
	}
}
