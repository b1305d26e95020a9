package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/runner/claude"
)

// TestRealClaudeFallsBackToItsDialogWhenAPreToolUseHookDies is #37 point
// 14's question (a): what Claude Code 2.1.332 does with a call whose
// PreToolUse hook gives no answer — killed (SIGKILL: no deny can be
// written) or ended by Claude at the hook's timeout. The real Claude runs
// alone in tmux against the fake model with the permissions Sentinel's
// managed settings give it (no allow rule; auto and bypass modes disabled —
// in auto mode, Claude's default here, a call whose hook was killed simply
// runs) and one PreToolUse hook that kills itself
// on the first call and sleeps past its 5 s timeout on the second.
//
// Alone, Claude takes a hook that died as no answer and asks its own
// question, "Do you want to proceed? 1. Yes": a person's Enter there runs
// the call without Sentinel's check (fail-open through the person). With
// permissions.denyInsteadOfPrompting — in a settings file, or in --settings
// as a run without a sandbox gives it — Claude refuses both calls itself
// (a run's Claude carries it: claude.Adapter's unattendedPermissions).
func TestRealClaudeFallsBackToItsDialogWhenAPreToolUseHookDies(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	const hookScript = `#!/bin/sh
cat >/dev/null
n=$(cat "$HOME/hook-count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$HOME/hook-count"
case $n in
1) kill -KILL $$ ;;
*) exec sleep 600 ;;
esac
`
	// flag: the hook and permissions go in --settings with no settings
	// file read, as a run without a sandbox gives them (Adapter.Settings).
	start := func(t *testing.T, extra string, flag bool) (*e2etest.Tmux, *fakemodel.Server, string) {
		dir := e2etest.ScriptRepo(t)
		model := e2etest.StartModel(t, fakemodel.Script{
			fakemodel.Reply(fakemodel.Bash("echo f1 > f1.txt")),
			{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo f2 > f2.txt")}},
			{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done; nothing more to do.")}},
		})
		env := e2etest.ClaudeEnv(t, model)
		home := strings.TrimPrefix(env[0], "HOME=")
		hook := filepath.Join(home, "dies.sh")
		e2etest.WriteFile(t, hook, hookScript)
		if err := os.Chmod(hook, 0o755); err != nil {
			t.Fatal(err)
		}
		settings := `{` + e2etest.ClaudeStill + `"hooks":{` +
			`"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","timeout":5,"command":"` + hook + `"}]}]},` +
			`"permissions":{"disableAutoMode":"disable","disableBypassPermissionsMode":"disable"` + extra + `}}`
		if err := claude.SeedConfig(claude.ConfigFile(home), dir, e2etest.ClaudeTestKey); err != nil {
			t.Fatal(err)
		}
		if flag {
			return e2etest.StartTmux(t, "claude", dir, env, "--settings", settings, "--setting-sources", "", "Write the files."), model, dir
		}
		e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), settings)
		return e2etest.StartTmux(t, "claude", dir, env, "Write the files."), model, dir
	}
	t.Run("alone, a killed hook leaves Claude's own dialog", func(t *testing.T) {
		t.Parallel()
		tm, _, dir := start(t, "", false)
		s := tm.WaitFor("Claude's dialog or its turn's end", func(s string) bool {
			return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, " · done ")
		})
		t.Logf("Claude's screen after the PreToolUse hook was killed:\n%s", s)
		if strings.Contains(s, "auto mode on") {
			t.Fatal("Claude runs in auto mode: the test does not have Sentinel's permissions")
		}
		if !strings.Contains(s, "Do you want to proceed?") {
			t.Errorf("Claude no longer falls back to its own dialog when a PreToolUse hook is killed")
		}
		if _, err := os.Stat(filepath.Join(dir, "f1.txt")); err == nil {
			t.Errorf("f1.txt was written with no answer at all")
		}
	})
	for _, flag := range []bool{false, true} {
		name := "with denyInsteadOfPrompting, a killed or timed-out hook refuses"
		if flag {
			name += ", from --settings"
		}
		t.Run(name, func(t *testing.T) { refusesWhenItsHookDies(t, start, flag) })
	}
}

// refusesWhenItsHookDies is the case with denyInsteadOfPrompting, in a
// settings file or in --settings (flag).
func refusesWhenItsHookDies(t *testing.T, start func(*testing.T, string, bool) (*e2etest.Tmux, *fakemodel.Server, string), flag bool) {
	t.Parallel()
	tm, model, dir := start(t, `,"denyInsteadOfPrompting":true`, flag)
	tm.WaitRequests(model, 3)
	s := tm.WaitFor("Claude's dialog or its turn's end", func(s string) bool {
		return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, " · done ")
	})
	t.Logf("Claude's screen:\n%s", s)
	if strings.Contains(s, "Do you want to proceed?") {
		t.Fatal("Claude shows its own dialog although denyInsteadOfPrompting is set")
	}
	for i, r := range e2etest.ToolResults(model) {
		t.Logf("call %d reached the model as is_error=%v %q", i+1, r.IsError, r.Content)
		if !r.IsError {
			t.Errorf("call %d ran although its hook died: %q", i+1, r.Content)
		}
	}
	for _, f := range []string{"f1.txt", "f2.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written: a call whose hook died ran", f)
		}
	}
}
