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

// TestRealClaudeIgnoresADeferInAnInteractiveSession is more of the
// evidence for #37 point 14 (why sentinel exec keeps the one-step
// PreToolUse deny, claudehook.HookAnswer): the one PreToolUse answer besides
// deny that does not run the call, permissionDecision "defer", is ignored
// by an interactive Claude Code 2.1.332 ("defer is print-mode only"): the
// call goes on as if the hook had said nothing — in auto mode, Claude's
// default here, it ran (one.txt written, seen); with auto mode disabled,
// as under Sentinel, to Claude's own dialog, where a key runs it. So it
// cannot carry Sentinel's deny; the test fails the day defer refuses.
func TestRealClaudeIgnoresADeferInAnInteractiveSession(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("echo one > one.txt")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done; nothing more to do.")}},
	})
	env := e2etest.ClaudeEnv(t, model)
	home := strings.TrimPrefix(env[0], "HOME=")
	hook := filepath.Join(home, "defer.sh")
	e2etest.WriteFile(t, hook, `#!/bin/sh
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","permissionDecisionReason":"FORM-DEFER refused"}}'
`)
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{`+e2etest.ClaudeStill+`"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+hook+`"}]}]}}`)
	if err := claude.SeedConfig(claude.ConfigFile(home), dir, e2etest.ClaudeTestKey); err != nil {
		t.Fatal(err)
	}
	tm := e2etest.StartTmux(t, "claude", dir, env, "Write one file.")
	s := tm.WaitFor("Claude's dialog or the end of its turn", func(s string) bool {
		return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, " · done ")
	})
	t.Logf("Claude's screen:\n%s", s)
	_, err := os.Stat(filepath.Join(dir, "one.txt"))
	ran := err == nil
	t.Logf("the deferred call ran: %v; Claude's dialog up: %v", ran, strings.Contains(s, "Do you want to proceed?"))
	if !ran && !strings.Contains(s, "Do you want to proceed?") {
		t.Errorf("a PreToolUse defer refused the call in an interactive session: Sentinel could answer its deny with it in exec")
	}
}
