package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestRealClaudeInteractiveLandsAfterExit: the way an interactive run
// lands, in one `sentinel run --sandbox off --coder claude` started at 80×24 (one
// Claude Code start for what were three tests: this one,
// TestRealClaudeInteractiveCreditsThePersonsDenyRule and
// TestRealClaudeAttachLeavesNoStaleText, which each started the same run).
//
//   - The person's own deny rule (Bash(rm:*)) refuses a call Sentinel
//     allowed: in its interactive mode Claude Code fires no hook for that,
//     its transcript is the only record, and the run reads it when the
//     coder ends: the journal says the call was refused by the person's
//     claude rules, and DECISIONS.md and FINAL_REPORT.md count it so
//     (issue 35, point 7), not as an allow that ran.
//   - The person approves the next command on the card (it runs).
//   - Attaching (i) and typing /help leaves no stale text: the input line
//     settles to what Claude Code drew last, with no fragment of an
//     earlier screen left behind (#37 point 3: "❯�/help e Code" was
//     reported after attaching at 80×24; with the pane's no-break spaces
//     painted as U+FFFD the input line reads "❯�/help Claude Code").
//   - The person then types /exit into Claude Code's own prompt; Claude Code
//     exits 0, the run goes to the review screen, and approving it (a, y)
//     lands the work on a branch.
func TestRealClaudeInteractiveLandsAfterExit(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("rm -f scripts/gen.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("./scripts/gen.sh land")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Generated; nothing more to do.")}},
	})
	env := e2etest.ClaudeEnv(t, model)
	home := strings.TrimPrefix(env[0], "HOME=")
	e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), `{`+e2etest.ClaudeStill+`"permissions":{"deny":["Bash(rm:*)"]}}`)
	tm := e2etest.StartSentinelSized(t, 80, 24, dir, append(env, "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Tidy up, then generate the land file.")
	tm.WaitArmed("the card for ./scripts/gen.sh", e2etest.Has("./scripts/gen.sh land", "[a] approve once"))
	tm.Keys("a")
	tm.WaitRequests(model, 3)
	tm.WaitFor("Claude Code's answer", e2etest.Has("nothing more to do"))

	// Attach and type /help, as the person who saw stale text did.
	tm.Keys("i")
	tm.WaitFor("attach mode", e2etest.Has("ctrl+]"))
	tm.TypeText("/help")
	// Claude Code draws a frame in more than one write, and the pane may
	// be painted between two of them: a frame caught half drawn shows old
	// text for a moment. What must not happen is that it stays: the input
	// line settles to the typed command alone (Claude Code's input line
	// starts at the pane's first column; its command menu's rows are
	// indented), or the wait fails with the screen it last saw.
	s := tm.WaitFor("the typed command alone in Claude's input line", func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "❯") && strings.TrimSpace(line) == "❯ /help" {
				return true
			}
		}
		return false
	})
	for _, line := range strings.Split(s, "\n") {
		if strings.ContainsRune(line, '\uFFFD') {
			t.Errorf("a replacement character on screen: %q", line)
		}
	}
	t.Logf("screen after attaching:\n%s", s)

	// The rest at the 200×60 the review screen's keys line needs (at 80
	// columns it reads "[a] approve…"), as the landing was tested before.
	tm.Cmd("resize-window", "-t", "e2e", "-x", "200", "-y", "60")

	// Type /exit into Claude Code's own prompt, as the person would.
	tm.Keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
	tm.WaitFor("Claude's input line emptied", func(s string) bool { return !strings.Contains(s, "❯ /help") })
	tm.TypeText("/exit")
	tm.WaitFor("Claude Code's command menu", e2etest.Has("/exit", "Exit the CLI")) // it opens as the text is typed
	tm.Keys("Enter")
	tm.WaitArmed("the review screen", e2etest.Has("[a] approve: land"))
	tm.Keys("a")
	tm.WaitFor("the landing question", e2etest.Has("Land 1 of 1 file(s)"))
	tm.Keys("y")
	tm.WaitFor("the run's end in the status bar", e2etest.Has("run landed"))
	tm.Keys("q")
	s = tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))
	if !strings.Contains(s, "SENTINEL-EXITED 0") {
		t.Errorf("sentinel exited with an error:\n%s", s)
	}

	id := e2etest.LastRun(t, dir)
	if got := e2etest.Git(t, dir, "show", "sentinel/"+id+":gen-land.txt"); got != "generated land" {
		t.Errorf("landed gen-land.txt = %q", got)
	}
	if got := e2etest.Git(t, dir, "show", "sentinel/"+id+":scripts/gen.sh"); got == "" {
		t.Errorf("scripts/gen.sh is gone from the landed branch: the refused rm ran")
	}
	evs := e2etest.RunEvents(t, dir, id)
	// What Sentinel decided stays as it was: it allowed the rm (the policy)
	// and the person allowed gen.sh on the card.
	js := e2etest.ApprovalsOf(t, evs)
	if len(js) != 2 || js[0].Request.Command != "rm -f scripts/gen.sh" || !js[0].Decision.Allowed() || js[0].Decision.By == "person" ||
		js[1].Request.Command != "./scripts/gen.sh land" || !js[1].Decision.Allowed() || js[1].Decision.By != "person" {
		t.Fatalf("approvals, want Sentinel's allow of rm, then the person's allow of gen.sh:\n%s", e2etest.Describe(js))
	}
	// What took effect: the person's claude rules refused the rm.
	var refused []string
	for _, ev := range evs {
		if ev.Is(journal.Tool, coderstream.PermissionDenied) {
			refused = append(refused, ev.Text)
		}
	}
	if len(refused) != 1 || !strings.Contains(refused[0], "your own claude rules") || !strings.Contains(refused[0], "rm -f scripts/gen.sh") {
		t.Errorf("tool-lane refusals = %q, want the one rm refused by your own claude rules", refused)
	}
	eff := approvals.Effective(evs)
	if eff[0].Decision.Allowed() || eff[0].Decision.By != approvals.ByAgentRules+":claude" || !eff[1].Decision.Allowed() {
		t.Errorf("effective decisions, want rm denied by claude's rules and gen.sh allowed:\n%s", e2etest.Describe(eff))
	}
	runDir := filepath.Join(dir, ".sentinel", "runs", id)
	for _, f := range []string{"DECISIONS.md", "FINAL_REPORT.md"} {
		b, err := os.ReadFile(filepath.Join(runDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "your agent's own rules") {
			t.Errorf("%s does not credit the refusal to your agent's own rules:\n%s", f, b)
		}
	}
}
