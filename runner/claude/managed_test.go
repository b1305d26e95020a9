package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The managed policy keeps only Sentinel's hooks and permission rules
// (with every deny rule it was given and the host administrator's), never
// an allow or ask rule, and keeps the administrator's other keys and hooks.
func TestManagedSettings(t *testing.T) {
	a := New(Options{Sentinel: "/opt/sentinel"})
	host := map[string]any{
		"availableModels": []any{"sonnet"},
		"hooks":           map[string]any{"PreToolUse": []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "org-audit"}}}}},
		"permissions":     map[string]any{"deny": []any{"WebFetch"}, "allow": []any{"Bash(*)"}, "ask": []any{"Read"}},
		"env":             map[string]any{"CLAUDE_CODE_SIMPLE": "1", "ORG": "x"},
		"disableAllHooks": true,
	}
	m, err := a.ManagedSettings(host, []string{"Bash(git log:*)", "Bash(git log:*)"})
	if err != nil {
		t.Fatal(err)
	}
	if m["allowManagedHooksOnly"] != true || m["allowManagedPermissionRulesOnly"] != true || m["disableAllHooks"] != false {
		t.Errorf("locks missing: %v", m)
	}
	perms := m["permissions"].(map[string]any)
	if _, ok := perms["allow"]; ok {
		t.Errorf("an allow rule survived: %v", perms)
	}
	if _, ok := perms["ask"]; ok {
		t.Errorf("an ask rule survived: %v", perms)
	}
	if got := perms["deny"].([]any); len(got) != 2 || got[0] != "WebFetch" || got[1] != "Bash(git log:*)" {
		t.Errorf("deny = %v, want the host's and the given ones once each", got)
	}
	if perms["disableBypassPermissionsMode"] != "disable" {
		t.Errorf("bypassPermissions is not disabled: %v", perms)
	}
	env := m["env"].(map[string]any)
	if env["CLAUDE_CODE_SIMPLE"] != "0" || env["ORG"] != "x" {
		t.Errorf("env = %v: --bare must stay off, the host's other variables kept", env)
	}
	pre := m["hooks"].(map[string]any)["PreToolUse"].([]any)
	b, _ := json.Marshal(pre)
	if !strings.Contains(string(b), "org-audit") || !strings.Contains(string(b), "/opt/sentinel hook claude") {
		t.Errorf("PreToolUse hooks = %s, want the administrator's and Sentinel's", b)
	}
	for _, ev := range HookEvents {
		if _, ok := m["hooks"].(map[string]any)[ev]; !ok {
			t.Errorf("no managed hook for %s", ev)
		}
	}
	if m["availableModels"] == nil {
		t.Errorf("the administrator's other keys were dropped: %v", m)
	}
}

// The person's settings keep only what cannot run a command or widen
// access; env that switches hooks off or loads code is dropped.
func TestPersonalSettings(t *testing.T) {
	a := New(Options{})
	got := a.PersonalSettings(map[string]any{
		"env":          map[string]any{"FOO": "1", "CLAUDE_CODE_SIMPLE": "1", "NODE_OPTIONS": "--require x"},
		"model":        "opus",
		"hooks":        map[string]any{"PreToolUse": []any{}},
		"permissions":  map[string]any{"allow": []any{"Bash(*)"}, "deny": []any{"Read"}},
		"statusLine":   map[string]any{"type": "command", "command": "x"},
		"apiKeyHelper": "x",
		// the person's "Reduce motion": display only, runs nothing
		"prefersReducedMotion": true,
	})
	keys := []string{}
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, ",") != "env,model,prefersReducedMotion" {
		t.Errorf("kept keys %v, want env,model,prefersReducedMotion", keys)
	}
	if got["prefersReducedMotion"] != true {
		t.Errorf("prefersReducedMotion = %v, want the person's true", got["prefersReducedMotion"])
	}
	if env := got["env"].(map[string]any); len(env) != 1 || env["FOO"] != "1" {
		t.Errorf("env = %v, want only FOO", env)
	}
}

// Prepare copies the person's setup read-only into the run, maps their
// project entry onto the workspace, collects deny rules from the person
// and the repository, and with a place writes the managed policy there.
func TestPrepareKeepsThePersonsSetup(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home, ws, policy := t.TempDir(), t.TempDir(), t.TempDir()
	state := filepath.Join(t.TempDir(), "claude")
	writeFile(t, filepath.Join(home, ".claude", "CLAUDE.md"), "person md")
	writeFile(t, filepath.Join(home, ".claude", "agents", "a.md"), "agent")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"env":{"A":"1"},"permissions":{"deny":["Read(./secret)"],"allow":["Bash(*)"]},"hooks":{"Stop":[]}}`)
	writeFile(t, filepath.Join(home, ".claude.json"), `{"projects":{"/real/project":{"mcpServers":{"p":{"command":"x"}},"allowedTools":["Bash"]}}}`)
	writeFile(t, filepath.Join(ws, ".claude", "settings.local.json"), `{"permissions":{"deny":["WebFetch"],"allow":["Write"]}}`)
	writeFile(t, filepath.Join(ws, "CLAUDE.md"), "repo md")

	a := New(Options{Binary: "/usr/bin/claude", Sentinel: "/opt/sentinel"})
	n, err := a.Prepare(RunPaths{Home: home, Workspace: ws, Project: "/real/project", StateDir: state,
		PolicyDir: policy, Placed: true, SystemPrompt: "where you are"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(state, "CLAUDE.md")); string(b) != "person md" {
		t.Errorf("CLAUDE.md not copied: %q", b)
	}
	if _, err := os.Stat(filepath.Join(state, "agents", "a.md")); err != nil {
		t.Errorf("agents not copied: %v", err)
	}
	for _, d := range []string{"commands", "skills"} {
		if st, err := os.Stat(filepath.Join(state, d)); err != nil || !st.IsDir() {
			t.Errorf("%s must exist (and be kept read-only) even when the person has none", d)
		}
	}
	for _, p := range []string{"CLAUDE.md", "agents", "commands", "skills", "settings.json"} {
		if !slices.Contains(n.Protected, filepath.Join(state, p)) {
			t.Errorf("%s is not protected: %v", p, n.Protected)
		}
	}
	s := readJSON(t, filepath.Join(state, "settings.json"))
	if _, ok := s["hooks"]; ok {
		t.Errorf("the person's hooks were copied: %v", s)
	}
	if _, ok := s["permissions"]; ok {
		t.Errorf("the person's permission rules were copied into settings.json: %v", s)
	}
	cfg := readJSON(t, filepath.Join(state, ".claude.json"))
	proj := cfg["projects"].(map[string]any)[ws].(map[string]any)
	if proj["mcpServers"] == nil || proj["hasTrustDialogAccepted"] != true || proj["allowedTools"] != nil {
		t.Errorf("workspace entry = %v: want the project's MCP servers, trust, and no allowed tools", proj)
	}
	file := n.Places[ManagedSettingsPath]
	if file != filepath.Join(policy, "claude-managed-settings.json") {
		t.Fatalf("places = %v", n.Places)
	}
	m := readJSON(t, file)
	deny, _ := json.Marshal(m["permissions"].(map[string]any)["deny"])
	if string(deny) != `["Read(./secret)","WebFetch"]` {
		t.Errorf("managed deny = %s", deny)
	}
	argv, err := a.Argv("task")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := flagValue(argv, "--setting-sources"); v != "user,project,local" {
		t.Errorf("--setting-sources = %q under a managed policy", v)
	}
	if v, _ := flagValue(argv, "--append-system-prompt"); v != "where you are" {
		t.Errorf("--append-system-prompt = %q: the instructions are read by Claude Code itself here", v)
	}
}

// Without a place (sandbox off, macOS) no settings file is read: the
// person's env and deny rules go in --settings and the CLAUDE.md files in
// the appended system prompt.
func TestPrepareWithoutAPlace(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "CLAUDE.md"), "PERSON-MD")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"env":{"A":"1","CLAUDE_CODE_SIMPLE":"1"},"permissions":{"deny":["WebFetch"]}}`)
	writeFile(t, filepath.Join(ws, "CLAUDE.md"), "REPO-MD")
	a := New(Options{Binary: "/usr/bin/claude", Sentinel: "/opt/sentinel"})
	n, err := a.Prepare(RunPaths{Home: home, Workspace: ws, StateDir: filepath.Join(t.TempDir(), "c"), PolicyDir: t.TempDir(), SystemPrompt: "where"})
	if err != nil {
		t.Fatal(err)
	}
	if len(n.Places) != 0 {
		t.Errorf("places without a sandbox to show them: %v", n.Places)
	}
	argv, _ := a.Argv("task")
	if v, _ := flagValue(argv, "--setting-sources"); v != "" {
		t.Errorf("--setting-sources = %q without a managed policy", v)
	}
	s := settingsOf(t, argv)
	env := s["env"].(map[string]any)
	if env["A"] != "1" || env["CLAUDE_CODE_SIMPLE"] != "0" {
		t.Errorf("--settings env = %v", env)
	}
	if d, _ := json.Marshal(s["permissions"]); string(d) != `{"deny":["WebFetch"],"denyInsteadOfPrompting":true,"disableAutoMode":"disable","disableBypassPermissionsMode":"disable"}` {
		t.Errorf("--settings permissions = %s", d)
	}
	p, _ := flagValue(argv, "--append-system-prompt")
	for _, want := range []string{"where", "PERSON-MD", "REPO-MD"} {
		if !strings.Contains(p, want) {
			t.Errorf("system prompt lacks %q: %q", want, p)
		}
	}
}
