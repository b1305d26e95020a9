package codex

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
)

// hookGroup is one matcher group of Codex's hook shape.
type hookGroup struct {
	Matcher string
	Hooks   []struct {
		Type, Command string
		Timeout       int
	}
}

// In place, Prepare gives Codex Sentinel's hooks as its managed
// requirements when the sandbox places them: only they run, hooks are on,
// and nothing goes in CODEX_HOME or on the command line; the run's
// config.toml turns Codex's own approvals off and leaves the project
// untrusted.
func TestInPlacePrepareWithPlacedHooks(t *testing.T) {
	home, policy, ws := t.TempDir(), t.TempDir(), t.TempDir()
	a := New(Options{Mode: Interactive, Binary: "/opt/codex/bin/codex", Sentinel: "/opt/sentinel dir/sentinel-helper",
		Provider: Provider{BaseURL: "http://127.0.0.1:5000/v1"}, Args: []string{"exec", "--json", "task"}})
	needs, err := a.Prepare(RunPaths{Workspace: ws, StateDir: home, PolicyDir: policy, Placed: true})
	if err != nil {
		t.Fatal(err)
	}
	src := needs.Places[RequirementsPath]
	if filepath.Dir(src) != policy {
		t.Fatalf("places = %v, want %s from the policy dir", needs.Places, RequirementsPath)
	}
	var req struct {
		ManagedOnly bool `toml:"allow_managed_hooks_only"`
		Features    map[string]bool
		Hooks       map[string][]hookGroup
	}
	if _, err := toml.DecodeFile(src, &req); err != nil {
		t.Fatal(err)
	}
	if !req.ManagedOnly || !req.Features["hooks"] {
		t.Errorf("requirements: allow_managed_hooks_only %v, features %v", req.ManagedOnly, req.Features)
	}
	want := `'/opt/sentinel dir/sentinel-helper' hook codex`
	for _, ev := range HookEvents {
		g := req.Hooks[ev]
		if len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != want || g[0].Hooks[0].Type != "command" || g[0].Hooks[0].Timeout != HookTimeout {
			t.Errorf("requirements' %s hooks = %+v, want one command %q", ev, g, want)
		}
	}
	if req.Hooks["PreToolUse"][0].Matcher != "*" {
		t.Errorf("PreToolUse matcher = %q, want every tool", req.Hooks["PreToolUse"][0].Matcher)
	}
	if _, err := os.Stat(filepath.Join(home, hooksFile)); err == nil {
		t.Error("hooks.json written in CODEX_HOME although the hooks are placed")
	}
	argv, _ := a.Argv("ignored")
	if !slices.Equal(argv, []string{"/opt/codex/bin/codex", "exec", "--json", "task"}) {
		t.Errorf("argv = %q, want the person's own command line", argv)
	}

	var c struct {
		ApprovalPolicy string `toml:"approval_policy"`
		SandboxMode    string `toml:"sandbox_mode"`
		Features       map[string]bool
		Projects       map[string]struct {
			Trust string `toml:"trust_level"`
		}
	}
	if _, err := toml.DecodeFile(filepath.Join(home, "config.toml"), &c); err != nil {
		t.Fatal(err)
	}
	if c.ApprovalPolicy != "never" || c.SandboxMode != SandboxMode || !c.Features["hooks"] || c.Features["plugins"] {
		t.Errorf("config.toml: approval %q, sandbox %q, features %v", c.ApprovalPolicy, c.SandboxMode, c.Features)
	}
	if len(c.Projects) != 1 || c.Projects[ws].Trust != "untrusted" {
		t.Errorf("projects = %+v, want only %s, untrusted", c.Projects, ws)
	}
	if a.FullScreen() != true || string(a.SteerBytes("go  on\nnow")) != "go on now\r" {
		t.Errorf("in place: fullscreen %v, steer %q", a.FullScreen(), a.SteerBytes("go  on\nnow"))
	}
}

// Without a sandbox to place them the hooks go in CODEX_HOME/hooks.json,
// read-only for the coder, and Codex runs them without stored trust: the
// flag comes before the person's arguments (a global flag, ahead of any
// subcommand).
func TestInPlacePrepareWithoutPlaces(t *testing.T) {
	home := t.TempDir()
	a := New(Options{Mode: Interactive, Binary: "codex", Sentinel: "/s/sentinel", Launch: []string{"node", "/x/codex.js"}, Args: []string{"exec", "task"}})
	needs, err := a.Prepare(RunPaths{Workspace: t.TempDir(), StateDir: home, PolicyDir: t.TempDir(), Placed: false})
	if err != nil {
		t.Fatal(err)
	}
	if len(needs.Places) != 0 || !slices.Contains(needs.Protected, filepath.Join(home, hooksFile)) {
		t.Errorf("places %v, protected %v", needs.Places, needs.Protected)
	}
	var h struct{ Hooks map[string][]hookGroup }
	b, err := os.ReadFile(filepath.Join(home, hooksFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &h); err != nil || len(h.Hooks["PreToolUse"]) != 1 || h.Hooks["PreToolUse"][0].Hooks[0].Command != "/s/sentinel hook codex" {
		t.Errorf("hooks.json = %s (%v)", b, err)
	}
	argv, _ := a.Argv("")
	if !slices.Equal(argv, []string{"node", "/x/codex.js", bypassHookTrust, "exec", "task"}) {
		t.Errorf("argv = %q", argv)
	}
	// The app-server never gets either.
	s := New(Options{Binary: "codex"})
	if _, err := s.Prepare(RunPaths{Workspace: t.TempDir(), StateDir: t.TempDir(), PolicyDir: t.TempDir(), Placed: true}); err != nil {
		t.Fatal(err)
	}
	if argv, _ := s.Argv(""); !slices.Equal(argv, []string{"codex", "app-server"}) {
		t.Errorf("app-server argv = %q", argv)
	}
}

// In place Codex's own approvals are off, so its hook is the only gate;
// through the app-server Sentinel answers Codex's own approval requests.
func TestHookIsOnlyGateInPlace(t *testing.T) {
	if !New(Options{Mode: Interactive}).HookIsOnlyGate() || New(Options{Mode: AppServer}).HookIsOnlyGate() {
		t.Fatal("HookIsOnlyGate: want true in place (Interactive) only")
	}
}
