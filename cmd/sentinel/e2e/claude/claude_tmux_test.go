package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestRealClaudeInteractiveInTmux is a person at a terminal: `sentinel run
// --coder claude "task"` in a 200×60 tmux window opens the TUI with Claude
// Code's own TUI under it. The model asks for two commands the policy asks
// about; the person approves the first on the card (it runs), denies the
// second with a message (the model is told), then quits with q, y. Claude
// Code waits for more input after its turn, so quitting is how the run ends:
// it is interrupted and the work is kept for recovery, not landed.
func TestRealClaudeInteractiveInTmux(t *testing.T) {
	t.Parallel()
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
	// The patch beside it is computed within stopDiff of the stop; on a
	// loaded machine it may not be, and review computes it from the kept
	// workspace instead (runner/recovery_patch.go). Written, it must hold
	// the change.
	if p, err := os.ReadFile(filepath.Join(recovery, "patch.diff")); err == nil && !strings.Contains(string(p), "+generated tmux") {
		t.Errorf("recovered patch lacks gen-tmux.txt:\n%s", p)
	} else if err != nil && !os.IsNotExist(err) {
		t.Errorf("recovered patch: %v", err)
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
	t.Parallel()
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
