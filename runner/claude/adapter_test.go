package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// settingsOf finds the --settings JSON in argv.
func settingsOf(t *testing.T, argv []string) map[string]any {
	t.Helper()
	for i, a := range argv {
		if a == "--settings" && i+1 < len(argv) {
			var m map[string]any
			if err := json.Unmarshal([]byte(argv[i+1]), &m); err != nil {
				t.Fatalf("--settings is not JSON: %v", err)
			}
			return m
		}
	}
	t.Fatalf("no --settings in %q", argv)
	return nil
}

func flagValue(argv []string, flag string) (string, bool) {
	for i, a := range argv {
		if a == flag && i+1 < len(argv) {
			return argv[i+1], true
		}
	}
	return "", false
}

func TestArgv(t *testing.T) {
	tests := []struct {
		name       string
		opts       Options
		task       string
		wantTail   []string
		wantSource string
		wantModel  string
	}{
		{"interactive takes the task as its prompt", Options{}, "-add a health endpoint", []string{"--", "-add a health endpoint"}, "", ""},
		{"interactive without a task", Options{}, "  ", []string{"--setting-sources", ""}, "", ""},
		{"headless sends the task on stdin", Options{Mode: Headless}, "do it",
			[]string{"-p", "--output-format", "stream-json", "--input-format", "stream-json", "--verbose"}, "", ""},
		{"user settings and model", Options{UserSettings: true, Model: "sonnet"}, "x", []string{"--", "x"}, "user", "sonnet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Binary, tc.opts.Sentinel = "/opt/claude", "/opt/my tools/sentinel"
			argv, err := New(tc.opts).Argv(tc.task)
			if err != nil {
				t.Fatal(err)
			}
			if argv[0] != "/opt/claude" {
				t.Errorf("argv[0] = %q", argv[0])
			}
			if tail := argv[len(argv)-len(tc.wantTail):]; strings.Join(tail, "\x00") != strings.Join(tc.wantTail, "\x00") {
				t.Errorf("argv ends %q, want %q", tail, tc.wantTail)
			}
			if src, ok := flagValue(argv, "--setting-sources"); !ok || src != tc.wantSource {
				t.Errorf("--setting-sources = %q (present %v), want %q", src, ok, tc.wantSource)
			}
			if m, _ := flagValue(argv, "--model"); m != tc.wantModel {
				t.Errorf("--model = %q, want %q", m, tc.wantModel)
			}
			if tc.opts.Mode == Headless && strings.Contains(strings.Join(argv, " "), tc.task) {
				t.Errorf("headless argv carries the task: %q", argv)
			}
		})
	}
}

func TestSettingsInjectHooksThatCannotBeSwitchedOff(t *testing.T) {
	argv, err := New(Options{Binary: "/opt/claude", Sentinel: "/opt/my tools/sentinel"}).Argv("t")
	if err != nil {
		t.Fatal(err)
	}
	s := settingsOf(t, argv)
	if s["disableAllHooks"] != false {
		t.Errorf("disableAllHooks = %v, want false", s["disableAllHooks"])
	}
	env, _ := s["env"].(map[string]any)
	if env["CLAUDE_CODE_SIMPLE"] != "0" || env["CLAUDE_CODE_SAFE_MODE"] != "0" {
		t.Errorf("env = %v, want CLAUDE_CODE_SIMPLE and CLAUDE_CODE_SAFE_MODE forced to 0", env)
	}
	hooks, _ := s["hooks"].(map[string]any)
	for _, ev := range HookEvents {
		entries, _ := hooks[ev].([]any)
		if len(entries) != 1 {
			t.Errorf("%s: %d entries, want 1", ev, len(entries))
			continue
		}
		e := entries[0].(map[string]any)
		if (ev == "PreToolUse" || ev == "PostToolUse") && e["matcher"] != "*" {
			t.Errorf("%s matcher = %v, want *", ev, e["matcher"])
		}
		h := e["hooks"].([]any)[0].(map[string]any)
		if h["type"] != "command" || h["command"] != `SENTINEL_CLAUDE_DENY_BY_PERMISSION_REQUEST=1 '/opt/my tools/sentinel' hook claude` || h["timeout"] != float64(HookTimeout) {
			t.Errorf("%s hook = %v", ev, h)
		}
	}
}

// Without a managed policy no settings file is read, so the person's
// "Reduce motion" goes in --settings with their env; with one, their
// settings.json carries it (TestPersonalSettings).
func TestSettingsCarryThePersonsReduceMotionWithoutAPolicy(t *testing.T) {
	for _, managed := range []bool{false, true} {
		a := New(Options{Binary: "/opt/claude", Sentinel: "/opt/sentinel", Managed: managed,
			Personal: map[string]any{"prefersReducedMotion": true, "model": "opus"}})
		argv, err := a.Argv("t")
		if err != nil {
			t.Fatal(err)
		}
		s := settingsOf(t, argv)
		if got, want := s["prefersReducedMotion"], any(true); managed {
			if got != nil {
				t.Errorf("with a managed policy --settings has prefersReducedMotion %v; the person's settings.json carries it", got)
			}
		} else if got != want {
			t.Errorf("without a managed policy --settings has prefersReducedMotion %v, want the person's true", got)
		}
		if s["model"] != nil {
			t.Errorf("--settings has model %v: only display settings go there", s["model"])
		}
	}
}

func TestSteerBytesAndInitialInput(t *testing.T) {
	inter, head := New(Options{}), New(Options{Mode: Headless})
	if got := string(inter.SteerBytes("stop\nand  test")); got != "stop and test\r" {
		t.Errorf("interactive steer = %q", got)
	}
	if inter.InitialInput("task") != nil {
		t.Error("interactive mode writes the task on stdin; it belongs on the command line")
	}
	for _, b := range [][]byte{head.SteerBytes("run the tests\nplease"), head.InitialInput("run the tests\nplease")} {
		if !strings.HasSuffix(string(b), "\n") || strings.Count(string(b), "\n") != 1 {
			t.Fatalf("headless input %q is not one JSON line", b)
		}
		var m struct {
			Type    string
			Message struct {
				Role    string
				Content []struct{ Type, Text string }
			}
		}
		if err := json.Unmarshal(b, &m); err != nil || m.Type != "user" || m.Message.Role != "user" ||
			len(m.Message.Content) != 1 || m.Message.Content[0].Text != "run the tests\nplease" {
			t.Errorf("headless input %s decodes to %+v (%v)", b, m, err)
		}
	}
	if !inter.FullScreen() || head.FullScreen() || !inter.PerCommandApproval() || inter.Name() != "claude" {
		t.Error("interactive is full screen, headless is not; both approve per command; name is claude")
	}
}

// fakeClaude writes a stand-in Claude Code: the npm package (package.json
// saying version, when not empty) with a cli.js that leaves a marker when
// anything runs it. It returns the cli.js and the marker's path.
func fakeClaude(t *testing.T, version string) (cli, marker string) {
	t.Helper()
	dir := t.TempDir()
	marker = filepath.Join(dir, "ran")
	pkg := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if version != "" {
		j := `{"name": "@anthropic-ai/claude-code", "version": "` + version + `", "bin": {"claude": "cli.js"}}`
		if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(j), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cli = filepath.Join(pkg, "cli.js")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\ntouch "+marker+"\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return cli, marker
}

// Preflight reads the version from the package's files and never runs the
// program: it may be the project's own, and the sandbox is not up yet.
func TestPreflight(t *testing.T) {
	sentinel := filepath.Join(t.TempDir(), "sentinel")
	tests := []struct {
		name    string
		version string
		wantErr string
	}{
		{"current version", "2.1.332", ""},
		{"exactly the minimum", MinVersion, ""},
		{"too old", "1.0.44", "older than " + MinVersion},
		{"version not in its files", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cli, marker := fakeClaude(t, tc.version)
			err := New(Options{Binary: cli, Sentinel: sentinel}).Preflight()
			if tc.wantErr == "" && err != nil {
				t.Fatalf("Preflight: %v", err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "npm install")) {
				t.Fatalf("Preflight = %v, want an error with %q and the npm fix", err, tc.wantErr)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("Preflight ran the program on the host")
			}
		})
	}
	t.Run("missing", func(t *testing.T) {
		err := New(Options{Binary: filepath.Join(t.TempDir(), "nope"), Sentinel: sentinel}).Preflight()
		if err == nil || !strings.Contains(err.Error(), "npm install") {
			t.Fatalf("Preflight = %v", err)
		}
	})
	t.Run("not on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		err := New(Options{Sentinel: sentinel}).Preflight()
		if err == nil || !strings.Contains(err.Error(), "no claude on PATH") {
			t.Fatalf("Preflight = %v", err)
		}
	})
}

func TestAllowHosts(t *testing.T) {
	tests := []struct{ base, want string }{
		{"", "api.anthropic.com:443"},
		{"http://127.0.0.1:4123", "127.0.0.1:4123"},
		{"https://gateway.example.com/anthropic", "gateway.example.com:443"},
		{"http://proxy.internal", "proxy.internal:80"},
		{"http://[::1]:9000/", "[::1]:9000"},
		{"::not a url", "api.anthropic.com:443"},
	}
	for _, tc := range tests {
		if got := allowHosts(tc.base); len(got) != 1 || got[0] != tc.want {
			t.Errorf("allowHosts(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
}

func TestSandboxNeeds(t *testing.T) {
	a := New(Options{Binary: "/usr/bin/claude"})
	paths := strings.Join(a.StatePaths("/home/p"), " ")
	for _, want := range []string{"/home/p/.claude", "/home/p/.claude.json"} {
		if !strings.Contains(paths, want) {
			t.Errorf("StatePaths lack %s: %s", want, paths)
		}
	}
	pass := strings.Join(a.PassEnv(), " ")
	for _, name := range a.DropEnv() {
		if strings.Contains(" "+pass+" ", " "+name+" ") {
			t.Errorf("%s is both passed and dropped", name)
		}
	}
	if !strings.Contains(pass, "ANTHROPIC_API_KEY") || !strings.Contains(pass, "ANTHROPIC_BASE_URL") {
		t.Errorf("PassEnv = %s", pass)
	}
}
