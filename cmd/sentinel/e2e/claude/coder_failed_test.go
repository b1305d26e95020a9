package claude

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	fg "github.com/sentinelhq/sentinel/internal/fakegemini"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// finalReport is run id's FINAL_REPORT.md in dir.
func finalReport(t *testing.T, dir, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".sentinel", "runs", id, "FINAL_REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// waitJournal waits, up to e2etest.HangBound, until the journal of the
// newest run in dir holds an event that matches.
func waitJournal(t *testing.T, dir, what string, match func(journal.Event) bool) {
	t.Helper()
	if e2etest.Until(func() bool {
		ids, _ := filepath.Glob(filepath.Join(dir, ".sentinel", "runs", "*", "events.jsonl"))
		if len(ids) > 0 {
			evs, _ := journal.ReadFile(ids[len(ids)-1]) // being written: what reads so far
			for _, ev := range evs {
				if match(ev) {
					return true
				}
			}
		}
		return false
	}) {
		return
	}
	t.Fatalf("the journal never showed %s", what)
}

// failedToolResults are the journal's finished tool calls that failed.
func failedToolResults(evs []journal.Event) []journal.Event {
	var out []journal.Event
	for _, ev := range evs {
		if _, failed := approvals.ToolOutcome(ev); failed {
			out = append(out, ev)
		}
	}
	return out
}

// The real claude -p whose model API refuses the request never did the
// work: the run fails with Claude Code's own error.
func TestRealClaudeHeadlessWhoseModelFailsFailsTheRun(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	var script fakemodel.Script
	for range 12 {
		script = append(script, fakemodel.Fail(400))
	}
	model := e2etest.StartModel(t, script)
	defer func() { t.Logf("the model got %d request(s)", len(model.Requests())) }()
	res := e2etest.Sentinel(t, dir, e2etest.ClaudeEnv(t, model), "run", "--coder", "claude", "--headless", "--plain", "--allow-host", e2etest.ModelHost(model), "write safe.txt")
	if res.Code != 1 {
		t.Fatalf("exit %d, want 1 (the coder failed)\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	// The fake model's error body says "fakemodel: scripted status 400".
	if !strings.Contains(res.Stderr, "coder claude failed") || !strings.Contains(res.Stderr, "400") {
		t.Fatalf("the error does not carry Claude Code's own error:\nstderr: %s\nstdout:\n%s", res.Stderr, res.Stdout)
	}
	t.Logf("stderr: %s", res.Stderr)
	id := e2etest.LastRun(t, dir)
	if r := finalReport(t, dir, id); !strings.Contains(r, "**failed**") || !strings.Contains(r, "coder claude failed") {
		t.Fatalf("FINAL_REPORT.md does not say the coder failed:\n%s", r)
	}
	if e2etest.Git(t, dir, "branch", "--list", "sentinel/*") != "" {
		t.Fatal("a run whose coder failed landed a branch")
	}
}

// A command coder that exits non-zero fails the run with its own last words.
func TestCommandCoderThatFailsCarriesItsError(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "x", "--", "sh", "-c",
		"echo 'model provider not configured: no API key' >&2; exit 7")
	if res.Code != 1 {
		t.Fatalf("exit %d, want 1\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	want := "coder command failed: exited with status 7: model provider not configured: no API key"
	if !strings.Contains(res.Stderr, want) {
		t.Fatalf("stderr does not carry the coder's own error %q:\n%s", want, res.Stderr)
	}
	if r := finalReport(t, dir, e2etest.LastRun(t, dir)); !strings.Contains(r, "model provider not configured") {
		t.Fatalf("FINAL_REPORT.md does not carry the coder's error:\n%s", r)
	}
}

// A command coder reports each tool call it ran through the same hook the
// agents use; one that exited non-zero is a failed tool call in the
// journal, marked in the tool lane and counted in the report, while the
// run (the coder went on and finished) lands.
func TestCommandCoderFailedToolIsJournaledAndCounted(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	report := func(cmd string, code int) string {
		return fmt.Sprintf(`printf '%%s' '{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"call-%d","tool_input":{"command":"%s"},"tool_response":{"exit_code":%d}}' | %s hook claude`,
			code, cmd, code, e2etest.Bin)
	}
	script := "ls ./no-such-dir; " + report("ls ./no-such-dir", 2) + "; echo hi > out.txt; " + report("echo hi", 0)
	res := e2etest.Sentinel(t, dir, nil, "run", "--plain", "--coder", "command", "x", "--", "sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if !strings.Contains(res.Stdout, "[TOOL] coder reports: ✗ failed: Bash: ls ./no-such-dir → exit 2") {
		t.Fatalf("the tool lane does not show the failed call:\n%s", res.Stdout)
	}
	id := e2etest.LastRun(t, dir)
	if f := failedToolResults(e2etest.RunEvents(t, dir, id)); len(f) != 1 {
		t.Fatalf("%d failed tool results in the journal, want 1: %+v", len(f), f)
	}
	if r := finalReport(t, dir, id); !strings.Contains(r, "2 tool calls, 1 failed.") {
		t.Fatalf("FINAL_REPORT.md does not count the failed call:\n%s", r)
	}
}

// The real Gemini CLI over ACP whose model API refuses the request never
// did the work: the run fails with its own error.
func TestRealGeminiWhoseModelFailsFailsTheRun(t *testing.T) {
	t.Parallel()
	e2etest.NeedGemini(t)
	dir := e2etest.ScratchRepo(t)
	var script fg.Script
	for range 12 {
		script = append(script, fg.Fail(400))
	}
	model, home := fg.StartWithHome(t, script)
	res := e2etest.Sentinel(t, dir, model.Env(home), "run", "--coder", "acp", "--plain", "--allow-host", strings.TrimPrefix(model.URL, "http://"),
		"write hello.txt", "--", "gemini", "--acp")
	t.Logf("stderr: %s", res.Stderr)
	if res.Code != 1 || !strings.Contains(res.Stderr, "coder acp failed: ") || !strings.Contains(res.Stderr, "scripted failure 400") {
		t.Fatalf("exit %d, want 1 with the agent's error\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if r := finalReport(t, dir, e2etest.LastRun(t, dir)); !strings.Contains(r, "coder acp failed: ") {
		t.Fatalf("FINAL_REPORT.md does not carry the agent's error:\n%s", r)
	}
}

// Interactive Claude Code whose model refuses every request never did the
// work: its StopFailure hook carries the API error, and when the person
// leaves it with /exit the run ends failed (exit 1) with that error, never
// as an empty landing.
func TestRealClaudeInteractiveWhoseModelFailsFailsTheRun(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	var script fakemodel.Script
	for range 12 {
		script = append(script, fakemodel.Fail(400))
	}
	model := e2etest.StartModel(t, script)
	tm := e2etest.StartSentinel(t, dir, append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Write safe.txt.")
	tm.WaitRequests(model, 1)
	tm.WaitFor("Claude Code's API error", e2etest.Has("400"))
	// A person leaves after Sentinel has heard of the failure: Claude Code
	// runs its StopFailure hook on its own time (under load, seconds after
	// it draws the error), and /exit does not wait for it.
	waitJournal(t, dir, "Claude Code's StopFailure hook", func(ev journal.Event) bool {
		return ev.Kind == "coder-stop-failure"
	})

	tm.Keys("i")
	tm.TypeText("/exit")
	tm.WaitFor("Claude Code's command menu", e2etest.Has("/exit", "Exit the CLI"))
	tm.Keys("Enter")
	tm.WaitFor("the run's failure", e2etest.Has("coder claude failed"))
	tm.Keys("C-]") // leave the coder's terminal
	tm.Keys("q")
	s := tm.WaitFor("the quit question or the exit", func(s string) bool {
		return strings.Contains(s, "Stop the run and quit?") || strings.Contains(s, "SENTINEL-EXITED")
	})
	if !strings.Contains(s, "SENTINEL-EXITED") {
		tm.Keys("y")
		s = tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
	}
	if !strings.Contains(s, "SENTINEL-EXITED 1") {
		t.Errorf("sentinel did not exit 1:\n%s", s)
	}
	id := e2etest.LastRun(t, dir)
	var stopFailure bool
	for _, ev := range e2etest.RunEvents(t, dir, id) {
		if ev.Kind == "coder-stop-failure" {
			stopFailure = true
			t.Logf("StopFailure: %s %s", ev.Text, ev.Data)
		}
	}
	if !stopFailure {
		t.Error("the journal has no StopFailure from Claude Code's hook")
	}
	if r := finalReport(t, dir, id); !strings.Contains(r, "**failed**") || !strings.Contains(r, "coder claude failed") {
		t.Fatalf("FINAL_REPORT.md does not say the coder failed:\n%s", r)
	}
	if e2etest.Git(t, dir, "branch", "--list", "sentinel/*") != "" {
		t.Fatal("a run whose coder failed landed a branch")
	}
}
