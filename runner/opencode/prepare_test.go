package opencode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readConfig(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return m
}

// The person's config keeps what they set up, loses its plugins, and no
// longer asks in opencode's own prompt (Sentinel has decided by then);
// their denials stay.
func TestExecConfig(t *testing.T) {
	var in map[string]any
	if err := json.Unmarshal([]byte(`{
		"model": "anthropic/claude-x",
		"plugin": ["opencode-evil", "file:///tmp/p.js"],
		"permission": {"bash": {"*": "ask", "rm *": "deny", "ls *": "allow"}, "edit": "ask", "webfetch": "deny"},
		"agent": {"build": {"permission": {"bash": "ask", "edit": "deny"}}, "plan": {"prompt": "p"}},
		"mode": {"old": {"permission": {"edit": "ask"}}},
		"instructions": ["docs/rules.md"],
		"mcp": {"gh": {"type": "local", "command": ["gh-mcp"]}},
		"autoupdate": true
	}`), &in); err != nil {
		t.Fatal(err)
	}
	got := ExecConfig(in, []string{"/run/whereami.md", "/p/AGENTS.md"})
	var want map[string]any
	if err := json.Unmarshal([]byte(`{
		"model": "anthropic/claude-x",
		"permission": {"bash": {"*": "allow", "rm *": "deny", "ls *": "allow"}, "edit": "allow", "webfetch": "deny",
			"external_directory": "allow", "doom_loop": "allow"},
		"agent": {"build": {"permission": {"bash": "allow", "edit": "deny"}}, "plan": {"prompt": "p"}},
		"mode": {"old": {"permission": {"edit": "allow"}}},
		"instructions": ["docs/rules.md", "/run/whereami.md", "/p/AGENTS.md"],
		"mcp": {"gh": {"type": "local", "command": ["/bin/sh", "-c", "exec \"$0\" \"$@\"", "gh-mcp"]}},
		"autoupdate": false
	}`), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("ExecConfig =\n%s", g)
	}
	// One word for every permission, and no config at all.
	if p := ExecConfig(map[string]any{"permission": "ask"}, nil)["permission"]; !reflect.DeepEqual(p, map[string]any{"*": "allow", "external_directory": "allow", "doom_loop": "allow"}) {
		t.Errorf(`"permission": "ask" → %v`, p)
	}
	if p := ExecConfig(map[string]any{"permission": map[string]any{"external_directory": "deny"}}, nil)["permission"]; !reflect.DeepEqual(p, map[string]any{"external_directory": "deny", "doom_loop": "allow"}) {
		t.Errorf("a denied external_directory → %v", p)
	}
	if m := ExecConfig(nil, nil); m["plugin"] != nil || m["autoupdate"] != false {
		t.Errorf("no config → %v", m)
	}
}

// Prepare makes the run's own home: the person's config made for Sentinel
// (their config files merged, the file OPENCODE_CONFIG names last), their
// global AGENTS.md, login and model catalog, the project's AGENTS.md among
// the instructions, and Sentinel's plugin as the config dir's only plugin
// — the person's own plugin folder is not copied. The config dir is what
// the sandbox keeps read-only, with opencode's .gitignore written first.
func TestPrepare(t *testing.T) {
	home, xdg, project, state := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(xdg, "opencode", "config.json"), `{"model": "old/m", "share": "disabled"}`)
	write(t, filepath.Join(xdg, "opencode", "opencode.jsonc"), "{\n // mine\n \"model\": \"fake/m\", \"plugin\": [\"x\"],\n}")
	write(t, filepath.Join(xdg, "opencode", "AGENTS.md"), "my rules\n")
	write(t, filepath.Join(xdg, "opencode", "plugin", "theirs.js"), "export const X = async () => ({})\n")
	extra := filepath.Join(t.TempDir(), "extra.json")
	write(t, extra, `{"small_model": "fake/s"}`)
	write(t, filepath.Join(home, ".local", "share", "opencode", "auth.json"), `{"fake": {"type": "api", "key": "k"}}`)
	write(t, filepath.Join(home, ".cache", "opencode", "models.json"), `{"p": {}}`)
	write(t, filepath.Join(project, "CLAUDE.md"), "project rules\n")
	// The person turned animations off in opencode's TUI; its other
	// remembered choices are theirs alone.
	write(t, filepath.Join(home, ".local", "state", "opencode", "kv.json"), `{"animations_enabled": false, "recent_model": "x/y"}`)
	env := map[string]string{"XDG_CONFIG_HOME": xdg, "OPENCODE_CONFIG": extra}

	a := New(Options{Sentinel: "/opt/sentinel/sentinel-helper", Launch: []string{"/usr/bin/opencode"}})
	n, err := a.Prepare(RunPaths{Home: home, Getenv: func(k string) string { return env[k] }, StateDir: state, Project: project, WhereAmI: "you are in place"})
	if err != nil {
		t.Fatal(err)
	}
	runHome := filepath.Join(state, "home")
	cfg := filepath.Join(runHome, ".config", "opencode")
	if a.Home() != runHome || !strings.Contains(strings.Join(a.Env(), "\n"), "HOME="+runHome) {
		t.Errorf("Home %s, Env %v", a.Home(), a.Env())
	}
	if !reflect.DeepEqual(n.Writable, []string{runHome}) || !reflect.DeepEqual(n.Protected, []string{cfg}) {
		t.Errorf("needs: %+v", n)
	}
	c := readConfig(t, filepath.Join(cfg, "opencode.json"))
	if c["model"] != "fake/m" || c["share"] != "disabled" || c["small_model"] != "fake/s" || c["plugin"] != nil {
		t.Errorf("config: %v", c)
	}
	if ins, _ := json.Marshal(c["instructions"]); string(ins) != `["`+filepath.Join(cfg, "sentinel-whereami.md")+`","`+filepath.Join(project, "CLAUDE.md")+`"]` {
		t.Errorf("instructions = %s", ins)
	}
	for path, want := range map[string]string{
		filepath.Join(cfg, "AGENTS.md"):                                    "my rules\n",
		filepath.Join(cfg, "sentinel-whereami.md"):                         "you are in place\n",
		filepath.Join(cfg, ".gitignore"):                                   gitignore,
		filepath.Join(runHome, ".local", "share", "opencode", "auth.json"): `{"fake": {"type": "api", "key": "k"}}`,
		filepath.Join(runHome, ".cache", "opencode", "models.json"):        `{"p": {}}`,
		filepath.Join(runHome, ".local", "state", "opencode", "kv.json"):   "{\n  \"animations_enabled\": false\n}\n",
	} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", path, b, err, want)
		}
	}
	plugins, _ := os.ReadDir(filepath.Join(cfg, "plugin"))
	if len(plugins) != 1 || plugins[0].Name() != PluginFile {
		t.Fatalf("the run's plugin folder holds %v, want only %s", plugins, PluginFile)
	}
	src, _ := os.ReadFile(filepath.Join(cfg, "plugin", PluginFile))
	for _, want := range []string{`const HOOK = ["/opt/sentinel/sentinel-helper","hook","opencode"]`, `const PERSON_HOME = "` + home + `"`,
		"const DECIDE_MS = 600000", "const REPORT_MS = 30000"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the plugin lacks %s", want)
		}
	}
	if strings.Contains(string(src), "__SENTINEL_") {
		t.Error("the plugin has a placeholder left")
	}
}

// A person's config that does not parse stops the run with the file named.
func TestPrepareRefusesAConfigThatDoesNotParse(t *testing.T) {
	xdg := t.TempDir()
	write(t, filepath.Join(xdg, "opencode", "opencode.json"), `{"model": `)
	a := New(Options{Sentinel: "/s", Launch: []string{"/usr/bin/opencode"}})
	_, err := a.Prepare(RunPaths{Home: t.TempDir(), Getenv: func(k string) string { return map[string]string{"XDG_CONFIG_HOME": xdg}[k] }, StateDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(xdg, "opencode", "opencode.json")) {
		t.Fatalf("err = %v", err)
	}
}

func TestPluginNeedsAHookAndWaits(t *testing.T) {
	if _, err := Plugin(nil, "", time.Second, time.Second); err == nil {
		t.Error("no hook accepted")
	}
	if _, err := Plugin([]string{"/s", "hook", "opencode"}, "", 0, time.Second); err == nil {
		t.Error("no wait accepted")
	}
	src, err := Plugin([]string{"/a b/it's\u2028", "hook", "opencode"}, "", 1500*time.Millisecond, time.Second)
	if err != nil || !strings.Contains(src, `const HOOK = ["/a b/it's\u2028","hook","opencode"]`) || !strings.Contains(src, "const DECIDE_MS = 1500") {
		t.Errorf("Plugin = %v\n%s", err, src)
	}
}
