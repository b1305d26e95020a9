package claude

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/runner/claude"
)

// TestRealClaudeShowsEveryHookDenyAsAHookError is the evidence for #37
// point 14: how Claude Code 2.1.332 shows each way a PreToolUse hook can
// refuse a call. The real Claude runs alone in tmux (no Sentinel between:
// Sentinel's runs do not carry the person's hooks), against the fake model,
// with one PreToolUse hook that answers four calls in turn:
//
//  1. exit 2, the reason on stderr;
//  2. exit 0, {"hookSpecificOutput":{"hookEventName":"PreToolUse",
//     "permissionDecision":"deny","permissionDecisionReason":…}} — the form
//     Sentinel's hook answers in (claudehook.HookAnswer);
//  3. exit 0, {"decision":"block","reason":…};
//  4. exit 0, {"continue":false,"stopReason":…}.
//
// Claude's bundle turns 1–3 alike into a "blocking error" and formats it
// `PreToolUse:Bash hook error: <reason>` (its p7) for the model; its screen
// groups them as "N actions not run · permission denied", the text shown
// only in the transcript (ctrl+o). No PreToolUse form reads as a decision
// with its reason in this version (a PermissionRequest deny does, at a
// price: TestRealClaudeShowsAPermissionRequestDenyAsADecision). 4 is no
// refusal at all: the call runs, and Claude says "PreToolUse:Bash hook stopped Claude". So Sentinel keeps
// answering with 2 (the documented form, whose reason Claude passes on
// whole), and this test fails the day Claude treats the forms otherwise.
func TestRealClaudeShowsEveryHookDenyAsAHookError(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("echo one > one.txt")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo two > two.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo three > three.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo four > four.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done; nothing more to do.")}},
	})
	env := e2etest.ClaudeEnv(t, model)
	home := strings.TrimPrefix(env[0], "HOME=")
	hook := filepath.Join(home, "deny-forms.sh")
	e2etest.WriteFile(t, hook, `#!/bin/sh
cat >/dev/null
n=$(cat "$HOME/deny-count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$HOME/deny-count"
case $n in
1) echo "FORM-EXIT2 refused" >&2; exit 2 ;;
2) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"FORM-JSONDENY refused"}}' ;;
3) echo '{"decision":"block","reason":"FORM-BLOCK refused"}' ;;
*) echo '{"continue":false,"stopReason":"FORM-CONTINUE stopped"}' ;;
esac
`)
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"),
		`{`+e2etest.ClaudeStill+`"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+hook+`"}]}]}}`)
	if err := claude.SeedConfig(claude.ConfigFile(home), dir, e2etest.ClaudeTestKey); err != nil {
		t.Fatal(err)
	}
	tm := e2etest.StartTmux(t, "claude", dir, env, "Write four files.")
	tm.WaitRequests(model, 4)
	s := tm.WaitFor("Claude's turn to end", e2etest.Has("FORM-CONTINUE", " · done "))
	t.Logf("Claude's screen:\n%s", s)

	// What the model was told, call by call: forms 1–3 alike.
	results := e2etest.ToolResults(model)
	// (exit 2's reason comes after the hook's command in brackets)
	want := []string{"FORM-EXIT2 refused", "FORM-JSONDENY refused", "FORM-BLOCK refused"}
	if len(results) < len(want) {
		t.Fatalf("the model got %d tool results, want at least %d: %+v", len(results), len(want), results)
	}
	for i, w := range want {
		r := results[i]
		t.Logf("form %d reached the model as is_error=%v %q", i+1, r.IsError, r.Content)
		c := strings.TrimSpace(r.Content)
		if !r.IsError || !strings.HasPrefix(c, "PreToolUse:Bash hook error: ") || !strings.HasSuffix(c, w) {
			t.Errorf("form %d reached the model as %q (is_error %v), want \"PreToolUse:Bash hook error: …%s\"", i+1, r.Content, r.IsError, w)
		}
	}
	for _, r := range results[len(want):] {
		t.Logf("form 4 reached the model as is_error=%v %q", r.IsError, r.Content)
	}
	// On Claude's screen, 1–3 are one group: "Did not run 3 calls … 3
	// actions not run · permission denied" (no reason shown until the
	// transcript is opened); continue:false reads "PreToolUse:Bash hook
	// stopped Claude" with its stop reason — and the call RAN.
	flat := strings.Join(strings.Fields(s), " ")
	for _, w := range []string{"3 actions not run · permission denied", "PreToolUse:Bash hook stopped Claude FORM-CONTINUE stopped"} {
		if !strings.Contains(flat, w) {
			t.Errorf("Claude's screen does not show %q", w)
		}
	}
	for _, f := range []string{"one.txt", "two.txt", "three.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written: a refused call ran", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "four.txt")); err != nil {
		t.Errorf("four.txt was not written: continue:false now refuses the call (%v); Sentinel could use it", err)
	}
	// The transcript (ctrl+o) shows each refusal as an error:
	// "Error: PreToolUse:Bash hook error: FORM-JSONDENY refused".
	tm.Keys("C-o")
	s = tm.WaitFor("the transcript", e2etest.Has("Showing detailed transcript"))
	t.Logf("Claude's transcript (ctrl+o):\n%s", s)
	for _, w := range want {
		if !regexp.MustCompile(`Error: PreToolUse:Bash hook error: (\[[^\]]*\]: )?` + w).MatchString(s) {
			t.Errorf("Claude's transcript does not show %q as a hook error", w)
		}
	}
}

// TestRealClaudeShowsAPermissionRequestDenyAsADecision is the rest of the
// evidence for #37 point 14: the one form Claude Code 2.1.332 shows as a
// decision with its reason, and why Sentinel does not use it alone. A
// PreToolUse hook that answers permissionDecision "ask" sends the call to
// Claude's permission step, where a PermissionRequest hook answering
// {"decision":{"behavior":"deny","message":…}} refuses it: the model reads
// the message as is ("FORM-PRDENY refused", no "hook error" prefix) and
// the screen says "Denied by PermissionRequest hook" with "Reason: …".
//
// That takes two hook steps, and Claude puts its own "Do you want to
// proceed? ❯ 1. Yes" dialog up beside the running PermissionRequest step:
// an Enter pressed while the step runs approves the call although the step
// then answers deny, and when the step fails, is killed or times out the
// dialog stays. Only with permissions.denyInsteadOfPrompting set does
// Claude show no dialog: Enter does nothing, the deny holds, and a failed,
// killed or timed-out step refuses the call ("Permission for this tool use
// was denied … What required approval: <the ask's reason>"). The
// subtests show both. A run's Claude carries denyInsteadOfPrompting, and
// there Sentinel answers its deny this way (claudehook.EnvDenyByPermissionRequest;
// TestRealClaudeShowsSentinelsDenyAsADecision); sentinel exec keeps the
// one-step PreToolUse deny.
func TestRealClaudeShowsAPermissionRequestDenyAsADecision(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	// The hook: PreToolUse always asks; PermissionRequest denies the first
	// call once the test has pressed Enter in Claude's pane while it ran
	// (pr1-started, pr1-go), then fails (exit 1), is killed, and times out
	// (its timeout is 30 s; Claude ends it).
	const hookScript = `#!/bin/sh
in=$(cat)
case "$in" in
*'"hook_event_name":"PermissionRequest"'*)
  n=$(cat "$HOME/pr-count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$HOME/pr-count"
  case $n in
  1) : > "$HOME/pr1-started"
     i=0; while [ ! -f "$HOME/pr1-go" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done
     echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"FORM-PRDENY refused"}}}' ;;
  2) echo "FORM-PRFAIL broke" >&2; exit 1 ;;
  3) kill -KILL $$ ;;
  *) exec sleep 600 ;;
  esac ;;
*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"FORM-ASK asking"}}' ;;
esac
`
	start := func(t *testing.T, permissions string, calls int) (*e2etest.Tmux, *fakemodel.Server, string, string) {
		dir := e2etest.ScriptRepo(t)
		script := fakemodel.Script{fakemodel.Reply(fakemodel.Bash("echo f1 > f1.txt"))}
		for i := 2; i <= calls; i++ {
			script = append(script, fakemodel.Turn{When: fakemodel.AfterToolResult,
				Blocks: []fakemodel.Block{fakemodel.Bash("echo f" + strconv.Itoa(i) + " > f" + strconv.Itoa(i) + ".txt")}})
		}
		script = append(script, fakemodel.Turn{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done; nothing more to do.")}})
		model := e2etest.StartModel(t, script)
		env := e2etest.ClaudeEnv(t, model)
		home := strings.TrimPrefix(env[0], "HOME=")
		hook := filepath.Join(home, "permreq.sh")
		e2etest.WriteFile(t, hook, hookScript)
		if err := os.Chmod(hook, 0o755); err != nil {
			t.Fatal(err)
		}
		e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), `{`+e2etest.ClaudeStill+`"hooks":{`+
			`"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+hook+`"}]}],`+
			`"PermissionRequest":[{"matcher":"Bash","hooks":[{"type":"command","timeout":30,"command":"`+hook+`"}]}]}`+
			permissions+`}`)
		if err := claude.SeedConfig(claude.ConfigFile(home), dir, e2etest.ClaudeTestKey); err != nil {
			t.Fatal(err)
		}
		return e2etest.StartTmux(t, "claude", dir, env, "Write the files."), model, home, dir
	}
	// strayEnter presses Enter in Claude's pane while the first
	// PermissionRequest step runs, then lets the step answer.
	strayEnter := func(t *testing.T, tm *e2etest.Tmux, home string) string {
		t.Helper()
		e2etest.Eventually(t, "the PermissionRequest step starting", func() bool { // it makes a file
			_, err := os.Stat(filepath.Join(home, "pr1-started"))
			return err == nil
		}, tm.Screen)
		s := tm.Screen()
		tm.Keys("Enter")
		e2etest.WriteFile(t, filepath.Join(home, "pr1-go"), "")
		return s
	}
	checkDecision := func(t *testing.T, tm *e2etest.Tmux, model *fakemodel.Server) {
		t.Helper()
		r := e2etest.ToolResults(model)
		if len(r) == 0 || !r[0].IsError || strings.TrimSpace(r[0].Content) != "FORM-PRDENY refused" {
			t.Errorf("the PermissionRequest deny reached the model as %+v, want is_error and exactly \"FORM-PRDENY refused\"", r)
		}
	}

	t.Run("alone, Enter while the PermissionRequest step runs approves, and a failed step leaves the dialog", func(t *testing.T) {
		t.Parallel()
		tm, model, home, dir := start(t, "", 2)
		s := strayEnter(t, tm, home)
		t.Logf("Claude's screen as Enter was pressed while the PermissionRequest step ran:\n%s", s)
		tm.WaitRequests(model, 2)
		// Claude put its own dialog up beside the running hook: the
		// stray Enter chose "1. Yes", and the hook's deny came too late.
		r := e2etest.ToolResults(model)
		if len(r) == 0 || r[0].IsError {
			t.Errorf("the first call reached the model as %+v: a stray Enter no longer approves a call while its PermissionRequest step runs", r)
		}
		if _, err := os.Stat(filepath.Join(dir, "f1.txt")); err != nil {
			t.Errorf("f1.txt was not written (%v): a stray Enter no longer approves a call while its PermissionRequest step runs", err)
		}
		s = tm.WaitFor("Claude's permission dialog for the second call", e2etest.Has("Do you want to proceed?", "1. Yes", "f2.txt"))
		t.Logf("Claude's screen after the second step failed:\n%s", s)
		if _, err := os.Stat(filepath.Join(dir, "f2.txt")); err == nil {
			t.Errorf("f2.txt was written before anyone answered the dialog")
		}
	})

	t.Run("with denyInsteadOfPrompting, Enter does nothing and a failed, killed or timed-out step refuses", func(t *testing.T) {
		t.Parallel()
		tm, model, home, dir := start(t, `,"permissions":{"denyInsteadOfPrompting":true}`, 4)
		s := strayEnter(t, tm, home)
		t.Logf("Claude's screen while the PermissionRequest step ran (Enter pressed):\n%s", s)
		s = tm.WaitFor("Claude's turn to end", func(s string) bool {
			return strings.Contains(s, "Do you want to proceed?") || strings.Contains(s, " · done ")
		})
		t.Logf("Claude's screen:\n%s", s)
		if strings.Contains(s, "Do you want to proceed?") {
			t.Fatal("Claude shows its own permission dialog although denyInsteadOfPrompting is set")
		}
		checkDecision(t, tm, model)
		if !strings.Contains(strings.Join(strings.Fields(s), " "), "Denied by PermissionRequest hook") {
			t.Errorf("Claude's screen does not show \"Denied by PermissionRequest hook\"")
		}
		r := e2etest.ToolResults(model)
		if len(r) < 4 {
			t.Fatalf("the model got %d tool results, want 4: %+v", len(r), r)
		}
		for i, res := range r[1:4] {
			t.Logf("call %d (PermissionRequest step %s) reached the model as is_error=%v %q", i+2,
				[]string{"failed", "killed", "timed out"}[i], res.IsError, res.Content)
			if !res.IsError || !strings.Contains(res.Content, "Permission for this tool use was denied") ||
				!strings.Contains(res.Content, "FORM-ASK asking") {
				t.Errorf("call %d reached the model as %q, want Claude's own refusal naming the ask's reason", i+2, res.Content)
			}
		}
		for i := 1; i <= 4; i++ {
			if _, err := os.Stat(filepath.Join(dir, "f"+strconv.Itoa(i)+".txt")); err == nil {
				t.Errorf("f%d.txt was written: a refused call ran", i)
			}
		}
	})
}
