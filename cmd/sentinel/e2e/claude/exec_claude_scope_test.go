//go:build unix

package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// claudeKillerLoop is an approved command that leaves a loop behind, in
// its own session, which stops and kills every process of Sentinel's
// Claude hook (guard and inner hook) five times a second, noting each
// round in killer.log and pkill's complaints in killer.err. The brackets
// keep the loop's own sh from matching.
const claudeKillerLoop = `setsid sh -c 'while :; do pkill -STOP -f "hook [c]laude" 2>>killer.err; ` +
	`pkill -9 -f "hook [c]laude" 2>>killer.err; echo round >> killer.log; sleep 0.2; done' >/dev/null 2>&1 </dev/null & until [ -s killer.log ]; do sleep 0.1; done`

// In place, an approved command's background loop that kills or stops
// every hook process cannot reach the hooks (exec_claude_session_test.go's
// BackgroundKillerCannotReachTheHooks, the person's SHELL /bin/bash), also
// with the repository's .claude/settings.json naming the real
// shell, unwrapped, as SHELL and CLAUDE_CODE_SHELL (settings env reaches
// Claude Code's own environment): the commands are still scoped. Why it
// held before the run's managed policy named the shell (runner/claude's
// launchShell): Claude Code 2.1.332 did start that shell, but the loop
// goes through `sh -c`, the wrapper, which entered a scope of its own
// there; a killer with no system shell on its way was not kept
// (TestExecClaudeSettingsShellIsNotTheProjects).
func TestExecClaudeRepositoryShellSettingIsStillScoped(t *testing.T) {
	t.Parallel()
	claudeKillerRun(t, `{"env": {"SHELL": "/.sentinel-shells/usr/bin/bash", "CLAUDE_CODE_SHELL": "/.sentinel-shells/usr/bin/bash"}}`, "")
}

// The same for a person whose $SHELL is a bash at a path the sandbox does
// not show as the wrapper (here a copy in the project, like a bash of
// Homebrew's or Nix's): measured with 2.1.332, the commands are still
// scoped — Claude Code did not start that copy (why was not found; this
// pins it: a Claude Code that starts $SHELL from anywhere fails here).
func TestExecClaudeUncoveredShellIsStillScoped(t *testing.T) {
	t.Parallel()
	claudeKillerRun(t, "", "tools/bash")
}

// claudeKillerRun runs the killer loop then an asked call under sentinel
// exec -- claude, with settings (when not "") as the repository's
// .claude/settings.json and, with shellCopy (a path in the project), the
// person's SHELL a copy of bash there, and checks that the loop never
// reached the agent or its hooks.
func claudeKillerRun(t *testing.T, settings, shellCopy string) {
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	if settings != "" {
		e2etest.WriteFile(t, filepath.Join(dir, ".claude", "settings.json"), settings)
	}
	shell := "/bin/bash"
	if shellCopy != "" {
		b, err := os.ReadFile("/bin/bash")
		if err != nil {
			t.Skip("no /bin/bash to copy")
		}
		shell = filepath.Join(dir, shellCopy)
		if err := os.MkdirAll(filepath.Dir(shell), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(shell, b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const asked = `eval "echo ran > bypassed.txt"` // the policy asks about eval
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash(claudeKillerLoop)),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash(asked)}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("All done.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir(), "SHELL="+shell)
	tm := e2etest.StartSentinel(t, dir, env, "exec", "--allow-host", e2etest.ModelHost(model), "--", "claude", "Start the loop, then write the file.")
	gone := func(s string) bool {
		return strings.Contains(s, "run failed") || strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, "All done.")
	}
	claudeKillerHolds(t, tm, dir, asked, gone)
	const denyMsg = "not this one"
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")
	tm.WaitRequests(model, 3)
	if _, err := os.Stat(filepath.Join(dir, "bypassed.txt")); err == nil {
		t.Errorf("bypassed.txt exists: Claude ran the refused call")
	}
	rs := e2etest.ToolResults(model)
	if len(rs) < 2 || !rs[1].IsError || !strings.Contains(rs[1].Content, denyMsg) {
		t.Errorf("tool results = %s, want the second an error carrying %q", e2etest.JSONOf(rs), denyMsg)
	}
	for _, ev := range e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)) {
		if ev.Lane == journal.System && ev.Kind == approvals.KindGateBypassed {
			t.Errorf("the run journaled a bypass: %s", ev.Text)
		}
	}
}

// claudeKillerHolds approves the card for claudeKillerLoop, then waits for
// the card for asked (a call the policy asks about) and checks that it
// stays up over three rounds of the loop and that the loop's pkill was
// refused; gone says the session went past the card.
func claudeKillerHolds(t *testing.T, tm *e2etest.Tmux, dir, asked string, gone func(string) bool) {
	t.Helper()
	tm.WaitArmed("the card for the killer loop", e2etest.Has("pkill -STOP", "[a] approve once"))
	tm.Keys("a")
	cardUp := e2etest.Has(asked, "[a] approve once")
	s := tm.WaitFor("the card for "+asked+" (or the run failed, or Claude's own dialog)", func(s string) bool { return cardUp(s) || gone(s) })
	if !cardUp(s) {
		t.Fatalf("the card for %q never came up: the loop reached the agent or its hooks\n%s", asked, s)
	}
	log := filepath.Join(dir, "killer.log")
	from := claudeRounds(log)
	e2etest.Eventually(t, "three more rounds of the killer loop with the card up", func() bool {
		return claudeRounds(log) >= from+3 || gone(tm.Screen())
	}, func() string {
		errs, _ := os.ReadFile(filepath.Join(dir, "killer.err"))
		return fmt.Sprintf("rounds %d (from %d), killer.err %q\n%s", claudeRounds(log), from, errs, tm.Screen())
	})
	if s := tm.Screen(); !cardUp(s) || gone(s) {
		t.Fatalf("the card for %q went away while the loop ran\n%s", asked, s)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "killer.err")); !strings.Contains(string(b), "Operation not permitted") {
		t.Errorf("killer.err = %q: the loop's pkill was not refused", b)
	}
}

// claudeRounds is how many lines the killer loop has written to path.
func claudeRounds(path string) int {
	b, _ := os.ReadFile(path)
	return strings.Count(string(b), "\n")
}
