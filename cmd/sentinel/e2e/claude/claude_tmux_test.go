package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
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
//
// It took in TestRealClaudeInteractiveFailedCommandReachesTheJournal (the
// same run, one Claude Code start fewer): in an interactive Claude Code run
// only its hooks tell Sentinel what happened, so the model's last command,
// one that exits non-zero, reaches the journal through the
// PostToolUseFailure hook, shows as failed in the tool lane, and is counted
// in the report.
func TestRealClaudeInteractiveInTmux(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	before := e2etest.Checkout(t, dir)
	const denyMsg = "use make deploy instead"
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Generating."), fakemodel.Bash("./scripts/gen.sh tmux")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("mytool deploy --prod")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("ls ./no-such-dir-here")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done for now.")}},
	})

	tm := e2etest.StartSentinel(t, dir, append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Generate the tmux file, then deploy.")

	tm.WaitArmed("the card for ./scripts/gen.sh", e2etest.Has("./scripts/gen.sh tmux", "[a] approve once"))
	tm.Keys("a")

	tm.WaitArmed("the card for mytool", e2etest.Has("mytool deploy --prod", "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.TypeText(denyMsg)
	tm.Keys("Enter")

	// The model hears back about the three calls, then ends its turn.
	tm.WaitRequests(model, 4)
	rs := e2etest.ToolResults(model)
	if len(rs) != 3 || rs[0].IsError || !rs[1].IsError || !strings.Contains(rs[1].Content, denyMsg) || !rs[2].IsError {
		t.Errorf("tool results = %s\nwant the approved command's output, an error carrying %q, then the failed ls's error", e2etest.JSONOf(rs), denyMsg)
	}
	tm.WaitFor("the failed call in the tool lane", e2etest.Has("✗ failed: Bash: ls ./no-such-dir-here"))

	// Claude Code's Stop hook says its turn is over: the view says so and
	// offers D (issue 20 item 1).
	tm.WaitFor("the idle signal", e2etest.Has("coder idle — D to review", "D coder is done"))

	// Quit as a person would: q, then confirm.
	tm.Keys("q")
	tm.WaitFor("the quit confirmation", e2etest.Has("Stop the run and quit?"))
	tm.Keys("y")
	s := tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
	if !strings.Contains(s, "SENTINEL-EXITED 130") || !strings.Contains(s, "work kept in recovery") {
		t.Errorf("after quitting, want exit 130 and where the work is kept; screen:\n%s", s)
	}

	id := e2etest.LastRun(t, dir)
	evs := e2etest.RunEvents(t, dir, id)
	js := e2etest.ApprovalsOf(t, evs)
	if len(js) != 3 || js[0].Request.Command != "./scripts/gen.sh tmux" || !js[0].Decision.Allowed() || js[0].Decision.By != "person" ||
		js[1].Request.Command != "mytool deploy --prod" || js[1].Decision.Allowed() || js[1].Decision.By != "person" || js[1].Decision.Message != denyMsg ||
		js[2].Request.Command != "ls ./no-such-dir-here" || !js[2].Decision.Allowed() || js[2].Decision.By == "person" {
		t.Errorf("approvals, want the person's allow then deny with a message, then the policy's allow of ls:\n%s", e2etest.Describe(js))
	}
	// The failed ls, as Claude Code's hook reported it, in the journal and
	// the report's count (the denied call never ran: not a failed call).
	failed := failedToolResults(evs)
	if len(failed) != 1 || !approvals.CoderReported(failed[0]) || !strings.Contains(failed[0].Text, "ls ./no-such-dir-here") {
		t.Errorf("failed tool results in the journal = %+v, want the one Bash call, reported by the hook", failed)
	}
	if r := finalReport(t, dir, id); !strings.Contains(r, "2 tool calls, 1 failed.") {
		t.Errorf("FINAL_REPORT.md does not count the failed call:\n%s", r)
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
	if br := e2etest.Git(t, dir, "branch", "--list", "sentinel/*"); br != "" {
		t.Errorf("an interrupted run landed a branch: %s", br)
	}
	if after := e2etest.Checkout(t, dir); after != before {
		t.Errorf("the person's checkout changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
