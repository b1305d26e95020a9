package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// TestRealClaudeInteractiveInTmux is a person at a terminal: `sentinel run
// --coder claude "task"` in a 200×60 tmux window opens the TUI with Claude
// Code's own TUI under it. The model asks for two commands the policy asks
// about; the person approves the first on the card (it runs), denies the
// second with a message (the model is told), then quits with q, y. Claude
// Code waits for more input after its turn, so quitting is how the run ends:
// it is interrupted and the work is kept for recovery, not landed.
func TestRealClaudeInteractiveInTmux(t *testing.T) {
	needClaude(t)
	dir := scriptRepo(t)
	before := checkout(t, dir)
	const denyMsg = "use make deploy instead"
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Generating."), fakemodel.Bash("./scripts/gen.sh tmux")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("mytool deploy --prod")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done for now.")}},
	})

	tm := startTmux(t, dir, append(claudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Generate the tmux file, then deploy.")

	tm.waitArmed("the card for ./scripts/gen.sh", has("./scripts/gen.sh tmux", "[a] approve once"))
	tm.keys("a")

	tm.waitArmed("the card for mytool", has("mytool deploy --prod", "[a] approve once"))
	tm.keys("d")
	tm.waitFor("the deny message prompt", has("message for the coder"))
	tm.typeText(denyMsg)
	tm.keys("Enter")

	// The model hears back about both calls, then ends its turn.
	tm.waitRequests(model, 3)
	rs := toolResults(model)
	if len(rs) != 2 || rs[0].IsError || !rs[1].IsError || !strings.Contains(rs[1].Content, denyMsg) {
		t.Errorf("tool results = %s\nwant the approved command's output, then an error carrying %q", jsonOf(rs), denyMsg)
	}

	// Claude Code's Stop hook says its turn is over: the view says so and
	// offers D (issue 20 item 1).
	tm.waitFor("the idle signal", has("coder idle — D to review", "D coder is done"))

	// Quit as a person would: q, then confirm.
	tm.keys("q")
	tm.waitFor("the quit confirmation", has("Stop the run and quit?"))
	tm.keys("y")
	s := tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))
	if !strings.Contains(s, "SENTINEL-EXITED 130") || !strings.Contains(s, "work kept in recovery") {
		t.Errorf("after quitting, want exit 130 and where the work is kept; screen:\n%s", s)
	}

	id := lastRun(t, dir)
	evs := runEvents(t, dir, id)
	js := approvalsOf(t, evs)
	if len(js) != 2 || js[0].Request.Command != "./scripts/gen.sh tmux" || !js[0].Decision.Allowed() || js[0].Decision.By != "person" ||
		js[1].Request.Command != "mytool deploy --prod" || js[1].Decision.Allowed() || js[1].Decision.By != "person" || js[1].Decision.Message != denyMsg {
		t.Errorf("approvals, want the person's allow then deny with a message:\n%s", describe(js))
	}
	var status, recovery string
	for _, ev := range evs {
		var d struct {
			Status string `json:"status"`
			Dir    string `json:"dir"`
		}
		_ = ev.Decode(&d)
		switch {
		case ev.Lane == journal.System && ev.Kind == "run-end":
			status = d.Status
		case ev.Lane == journal.System && ev.Kind == "recovery":
			recovery = d.Dir
		}
	}
	if status != "interrupted" || recovery == "" {
		t.Fatalf("run ended %q with recovery %q; want interrupted, with the work kept", status, recovery)
	}
	// The approved command's effect is in the kept work, and nothing landed.
	if b, err := os.ReadFile(filepath.Join(recovery, "workspace", "gen-tmux.txt")); err != nil || string(b) != "generated tmux\n" {
		t.Errorf("recovered workspace gen-tmux.txt = %q (%v)", b, err)
	}
	if p, _ := os.ReadFile(filepath.Join(recovery, "patch.diff")); !strings.Contains(string(p), "+generated tmux") {
		t.Errorf("recovered patch lacks gen-tmux.txt:\n%s", p)
	}
	if br := git(t, dir, "branch", "--list", "sentinel/*"); br != "" {
		t.Errorf("an interrupted run landed a branch: %s", br)
	}
	if after := checkout(t, dir); after != before {
		t.Errorf("the person's checkout changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestRealClaudeInteractiveLandsAfterExit: the way an interactive run lands.
// The person approves the command on the card, then attaches (i) to Claude
// Code and types /exit; Claude Code exits 0, the run goes to the review
// screen, and approving it (a, y) lands the work on a branch.
func TestRealClaudeInteractiveLandsAfterExit(t *testing.T) {
	needClaude(t)
	dir := scriptRepo(t)
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("./scripts/gen.sh land")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Generated; nothing more to do.")}},
	})
	tm := startTmux(t, dir, append(claudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Generate the land file.")
	tm.waitArmed("the card for ./scripts/gen.sh", has("./scripts/gen.sh land", "[a] approve once"))
	tm.keys("a")
	tm.waitRequests(model, 2)
	tm.waitFor("Claude Code's answer", has("nothing more to do"))

	// Type /exit into Claude Code's own prompt, as the person would.
	tm.keys("i")
	tm.typeText("/exit")
	tm.waitFor("Claude Code's command menu", has("/exit", "Exit the CLI")) // it opens as the text is typed
	tm.keys("Enter")
	tm.waitArmed("the review screen", has("[a] approve: land"))
	tm.keys("a")
	tm.waitFor("the landing question", has("Land 1 of 1 file(s)"))
	tm.keys("y")
	tm.waitFor("the run's end in the status bar", has("run landed"))
	tm.keys("q")
	s := tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))
	if !strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("sentinel exited with an error:\n%s", s)
	}
	id := lastRun(t, dir)
	if got := git(t, dir, "show", "sentinel/"+id+":gen-land.txt"); got != "generated land" {
		t.Errorf("landed gen-land.txt = %q", got)
	}
	js := approvalsOf(t, runEvents(t, dir, id))
	if len(js) != 1 || !js[0].Decision.Allowed() || js[0].Decision.By != "person" {
		t.Errorf("approvals, want the person's one allow:\n%s", describe(js))
	}
}

// tmuxRun is sentinel running in a 200×60 tmux window, driven like a person.
type tmuxRun struct {
	t    *testing.T
	sock string
}

// startTmux starts sentinelBin with args in dir in a detached tmux session,
// with env added; when sentinel exits the pane shows SENTINEL-EXITED <status>.
func startTmux(t *testing.T, dir string, env []string, args ...string) *tmuxRun {
	t.Helper()
	return startTmuxSized(t, 200, 60, dir, env, args...)
}

// startTmuxSized is startTmux in a window cols by rows.
func startTmuxSized(t *testing.T, cols, rows int, dir string, env []string, args ...string) *tmuxRun {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the TUI end-to-end tests")
		}
		t.Skip("tmux is not installed: skipping the interactive end-to-end test")
	}
	// A short socket path: unix socket paths are limited to ~100 bytes.
	sockDir, err := os.MkdirTemp("", "tm")
	if err != nil {
		t.Fatal(err)
	}
	tm := &tmuxRun{t: t, sock: filepath.Join(sockDir, "s")}
	var line strings.Builder
	line.WriteString("cd " + shq(dir) + " && env")
	for _, e := range env {
		line.WriteString(" " + shq(e))
	}
	line.WriteString(" " + shq(sentinelBin))
	for _, a := range args {
		line.WriteString(" " + shq(a))
	}
	line.WriteString("; echo SENTINEL-EXITED $?; sleep 120")
	tm.tmux("new-session", "-d", "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), "-s", "e2e", line.String())
	t.Cleanup(func() {
		// Ending tmux hangs up on sentinel, which then keeps the run's work
		// for recovery; wait for that, so the test's temp dirs are removed
		// after it and not while it writes.
		kids := childPIDs(strings.TrimSpace(tm.tmux("display", "-p", "-t", "e2e", "#{pane_pid}")))
		tm.tmux("kill-server")
		waitGone(kids, 10*time.Second)
		os.RemoveAll(sockDir)
	})
	return tm
}

func (tm *tmuxRun) tmux(args ...string) string {
	out, _ := exec.Command("tmux", append([]string{"-S", tm.sock}, args...)...).CombinedOutput()
	return string(out)
}

// keys sends tmux key names (a, Enter, C-]) to the window.
func (tm *tmuxRun) keys(keys ...string) {
	tm.tmux(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

// typeText sends s literally.
func (tm *tmuxRun) typeText(s string) { tm.tmux("send-keys", "-t", "e2e", "-l", s) }

func (tm *tmuxRun) screen() string { return tm.tmux("capture-pane", "-p", "-t", "e2e") }

// waitFor polls the screen until cond holds; the bound (2 min) is for a
// hung run, not a speed check.
func (tm *tmuxRun) waitFor(what string, cond func(string) bool) string {
	tm.t.Helper()
	var s string
	for i := 0; i < 1200; i++ {
		if s = tm.screen(); cond(s) {
			return s
		}
		time.Sleep(100 * time.Millisecond)
	}
	tm.t.Fatalf("never saw %s; screen:\n%s", what, s)
	return s
}

// waitRequests waits until the model has had n main-loop requests.
func (tm *tmuxRun) waitRequests(model *fakemodel.Server, n int) {
	tm.t.Helper()
	deadline := time.After(2 * time.Minute) // a bound on a hung run
	for len(model.Requests()) < n {
		select {
		case <-model.Changed():
		case <-deadline:
			tm.t.Fatalf("the model got %d requests, want %d; screen:\n%s", len(model.Requests()), n, tm.screen())
		}
	}
}

// has is a screen condition: every part is on it.
func has(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// childPIDs are the children of pid (via pgrep), for waiting on them.
func childPIDs(pid string) []int {
	if pid == "" {
		return nil
	}
	out, _ := exec.Command("pgrep", "-P", pid).Output()
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// waitGone waits (up to bound) until none of pids is alive.
func waitGone(pids []int, bound time.Duration) {
	deadline := time.Now().Add(bound)
	for _, pid := range pids {
		for procgroup.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
	}
}
