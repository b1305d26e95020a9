package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/tomlquote"
)

// fakeHome is a home with the usual places, credential dirs and a project.
func fakeHome(t *testing.T) (home, project string) {
	t.Helper()
	home, _ = filepath.EvalSymlinks(t.TempDir())
	for _, d := range []string{"src/proj", "Documents", "code", ".ssh", ".aws", ".gnupg", ".config/gh"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return home, filepath.Join(home, "src", "proj")
}

func TestMCPInitWritesConfigTheLoaderAccepts(t *testing.T) {
	home, project := fakeHome(t)
	file := filepath.Join(home, ".config", "sentinel", "mcp.toml")
	var out bytes.Buffer
	if err := mcpInit(&out, file, project, home, false); err != nil {
		t.Fatal(err)
	}
	cfg, err := mcpserver.LoadConfig(file)
	if err != nil {
		t.Fatalf("the written config does not load: %v", err)
	}
	got := map[string]string{}
	for _, p := range cfg.Paths {
		got[p.Path] = p.Access
	}
	want := map[string]string{project: "rw", filepath.Join(home, "Documents"): "r", filepath.Join(home, "code"): "r"}
	for p, a := range want {
		if got[p] != a {
			t.Errorf("path %s: access %q, want %q (all: %v)", p, got[p], a, got)
		}
	}
	// ~/src holds the rw project; it is listed r (an r path may hold an rw one).
	if got[filepath.Join(home, "src")] != "r" {
		t.Errorf("~/src not listed r: %v", got)
	}
	for p := range got {
		if !mcpSafePath(home, p) {
			t.Errorf("credential dir reachable through %s", p)
		}
	}
	if len(got) != 4 {
		t.Errorf("paths %v: want the project, ~/src, ~/code and ~/Documents only (no missing ones)", got)
	}
	if len(cfg.AllowedCommands) == 0 || cfg.ExecMode != "allowlist" {
		t.Errorf("allowlist: mode %q, commands %v", cfg.ExecMode, cfg.AllowedCommands)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("config mode: %v %v", st, err)
	}
	if !strings.Contains(out.String(), file) || !strings.Contains(out.String(), "sentinel mcp --config "+file) {
		t.Errorf("output does not say where it wrote and how to start: %s", out.String())
	}
}

func TestMCPInitKeepsAnExistingFile(t *testing.T) {
	home, project := fakeHome(t)
	file := filepath.Join(home, "mcp.toml")
	if err := os.WriteFile(file, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := mcpInit(&bytes.Buffer{}, file, project, home, false)
	if err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("want a refusal naming --force, got %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "mine" {
		t.Fatalf("existing file changed: %q", b)
	}
	if err := mcpInit(&bytes.Buffer{}, file, project, home, true); err != nil {
		t.Fatal(err)
	}
	if _, err := mcpserver.LoadConfig(file); err != nil {
		t.Fatal(err)
	}
}

func TestMCPInitRefusesHomeAndCredentialDirs(t *testing.T) {
	home, _ := fakeHome(t)
	for _, cwd := range []string{home, filepath.Dir(home), "/", filepath.Join(home, ".ssh"), filepath.Join(home, ".config")} {
		if _, err := mcpStarterConfig(cwd, home); err == nil {
			t.Errorf("cwd %s: want a refusal", cwd)
		}
	}
}

func TestMCPSafePath(t *testing.T) {
	home := "/home/u"
	for p, ok := range map[string]bool{
		"/home/u/src": true, "/home/u/.ssh": false, "/home/u/.ssh/keys": false, "/home/u/.config": false,
		"/home/u/.config/gh": false, "/home/u": false, "/home/u/.sshx": true, "/opt": true,
	} {
		if mcpSafePath(home, p) != ok {
			t.Errorf("mcpSafePath(%s) = %v, want %v", p, !ok, ok)
		}
	}
}

func TestTOMLStringRoundTrips(t *testing.T) {
	for _, s := range []string{`/a "b"`, `/c\d`, "/e\tf", "/g\x01"} {
		src := "[[paths]]\npath = " + tomlquote.String(s) + "\naccess = \"r\"\n"
		_, err := mcpserver.ParseConfig("x.toml", src)
		if err == nil || !strings.Contains(err.Error(), "path") {
			t.Errorf("%q: %v", s, err)
		}
		if strings.Contains(err.Error(), "TOML syntax") {
			t.Errorf("%q does not parse: %v", s, err)
		}
	}
}
