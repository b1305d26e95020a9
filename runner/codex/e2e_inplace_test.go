package codex

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	fr "github.com/sentinelhq/sentinel/internal/fakeresponses"
	"github.com/sentinelhq/sentinel/internal/testbin"
)

// runInPlace runs the real `codex exec` the way `sentinel exec -- codex
// exec …` sets it up when no sandbox places the hooks (Prepare in
// Interactive mode: CODEX_HOME/hooks.json, --dangerously-bypass-hook-trust),
// without the sandbox, its hooks the built sentinel binary asking w's
// broker; person is the person's CODEX_HOME ("": none). It returns codex's
// output.
func (w *world) runInPlace(t *testing.T, person, task string) string {
	t.Helper()
	bin := requireCodex(t)
	sentinel, err := testbin.Sentinel()
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Mode: Interactive, Binary: bin, Sentinel: sentinel,
		Provider: Provider{BaseURL: w.model.BaseURL(), EnvKey: "SENTINEL_TEST_KEY", Model: "gpt-5.5"},
		Args:     []string{"exec", "--skip-git-repo-check", task}})
	needs, err := a.Prepare(RunPaths{Workspace: w.ws, StateDir: w.codexHome, PersonDir: person})
	if err != nil {
		t.Fatal(err)
	}
	if len(needs.Places) != 0 || !contains(needs.Protected, filepath.Join(w.codexHome, hooksFile)) {
		t.Fatalf("unplaced hooks: places %v, protected %v (want hooks.json in CODEX_HOME, read-only)", needs.Places, needs.Protected)
	}
	argv, err := a.Argv("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = w.ws
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + w.home, "LANG=C.UTF-8", "SENTINEL_TEST_KEY=sk-test-fake",
		approvals.EnvSocket + "=" + w.broker.SocketPath()}, a.Env()...)
	cmd.Env = append(cmd.Env, w.env...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("codex exec did not finish in time:\n%s", out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("codex exec (%v):\n%s", err, out)
		}
	})
	return string(out)
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// TestInPlaceHooksFailClosed: the real `codex exec` with Sentinel's hooks
// as `sentinel exec` gives them. The first command is asked of the broker
// (allowed by policy) and runs; then the broker goes away (the run crashed
// or was stopped) before the model's next turn reaches Codex, so the next
// command's hook cannot get a decision. It must deny — Codex runs a call
// whose hook failed — the command must not run, and the model must hear
// why.
func TestInPlaceHooksFailClosed(t *testing.T) {
	var w *world
	var once sync.Once
	closed := false
	w = newWorld(t, fr.Script{
		fr.Reply(fr.ExecCommand("echo before > before.txt", "")),
		{When: func(r *fr.Request) bool {
			if !fr.AfterOutput(r) {
				return false
			}
			once.Do(func() { closed = true; w.broker.Close() })
			return true
		}, Items: []fr.Item{fr.ExecCommand("echo after > after.txt", "")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Stopping.")}},
	}, nil)
	w.runInPlace(t, "", "Write two files.")

	if !closed {
		t.Fatal("the broker was never closed: the test did not test anything")
	}
	ds := w.decisions(t)
	if len(ds) != 1 || !ds[0].Allowed() {
		t.Fatalf("broker decisions = %+v, want only the first command, allowed", ds)
	}
	if b, err := os.ReadFile(filepath.Join(w.ws, "before.txt")); err != nil || string(b) != "before\n" {
		t.Errorf("before.txt = %q (%v): the first, allowed command did not run", b, err)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "after.txt")); !os.IsNotExist(err) {
		t.Errorf("after.txt exists (err %v): a command ran with no broker to approve it", err)
	}
	reqs := w.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("the fake model got %d main-loop requests, want 3", len(reqs))
	}
	told := false
	for _, o := range reqs[2].LastOutputs() {
		if strings.Contains(o.Text, "blocked by PreToolUse hook") && strings.Contains(o.Text, "cannot reach the Sentinel broker") {
			told = true
		}
	}
	if !told {
		t.Errorf("the model did not hear the hook's deny; its last outputs: %+v", reqs[2].LastOutputs())
	}
}

// An MCP tool of the person's server, in place: its call comes to
// Sentinel's hook as mcp__<server>__<tool>, and runs only as the broker
// says (here a person approves the first call and denies the second).
func TestInPlaceMCPToolGoesThroughTheHook(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	answers := []approvals.Outcome{approvals.OutcomeAllow, approvals.OutcomeDeny}
	var mu sync.Mutex
	person := approvals.DeciderFunc(func(ctx context.Context, p *approvals.Prompt) approvals.Decision {
		mu.Lock()
		defer mu.Unlock()
		o := answers[0]
		answers = answers[1:]
		return approvals.Decision{Outcome: o, By: "person", Reason: "the person said " + string(o)}
	})
	call := func(name string) fr.Item {
		return fr.Item{Name: fakeMCPTool, Namespace: "mcp__fake", Arguments: map[string]any{"name": name}}
	}
	w := newWorld(t, fr.Script{
		fr.Reply(call("mcp-approved")),
		{When: fr.AfterOutput, Items: []fr.Item{call("mcp-denied")}},
		{When: fr.AfterOutput, Items: []fr.Item{fr.Text("Done.")}},
	}, person)
	home := personHome(t, fmt.Sprintf("[mcp_servers.fake]\ncommand = %q\nenv = { %s = %q }\n", exe, envFakeMCP, w.ws), "")
	w.runInPlace(t, home, "touch them")

	var got []string
	for _, r := range w.requests(t) {
		got = append(got, string(r.Kind)+" "+r.Tool)
	}
	if strings.Join(got, ", ") != "mcp mcp__fake__touch_marker, mcp mcp__fake__touch_marker" {
		t.Fatalf("broker requests = %q, want the two MCP calls", got)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "mcp-approved")); err != nil {
		t.Errorf("the approved MCP call did not run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "mcp-denied")); err == nil {
		t.Error("the denied MCP call ran")
	}
}
