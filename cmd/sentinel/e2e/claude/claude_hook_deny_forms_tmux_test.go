package claude

import (
	"os"
	"path/filepath"
	"regexp"
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
// only in the transcript (ctrl+o). No form reads as a decision with its
// reason in this version. 4 is no refusal at all: the call runs, and
// Claude says "PreToolUse:Bash hook stopped Claude". So Sentinel keeps
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
		`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"`+hook+`"}]}]}}`)
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
