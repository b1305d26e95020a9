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

// TestRealClaudeInteractiveCreditsThePersonsDenyRule: in its interactive
// mode Claude Code fires no hook when the person's own deny rule refuses a
// call Sentinel allowed; its transcript is the only record. The run reads
// it when the coder ends: the journal says the call was refused by the
// person's claude rules, and DECISIONS.md and FINAL_REPORT.md count it so
// (issue 35, point 7), not as an allow that ran.
func TestRealClaudeInteractiveCreditsThePersonsDenyRule(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Bash("rm -f scripts/gen.sh")),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("echo kept > kept.txt")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done; nothing more to do.")}},
	})
	env := e2etest.ClaudeEnv(t, model)
	home := strings.TrimPrefix(env[0], "HOME=")
	e2etest.WriteFile(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions":{"deny":["Bash(rm:*)"]}}`)
	tm := e2etest.StartSentinel(t, dir, append(env, "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Tidy up.")
	tm.WaitRequests(model, 3)
	tm.WaitFor("Claude Code's answer", e2etest.Has("nothing more to do"))
	tm.Keys("i")
	tm.TypeText("/exit")
	tm.WaitFor("Claude Code's command menu", e2etest.Has("/exit", "Exit the CLI"))
	tm.Keys("Enter")
	tm.WaitArmed("the review screen", e2etest.Has("[a] approve: land"))
	tm.Keys("a")
	tm.WaitFor("the landing question", e2etest.Has("Land 1 of 1 file(s)"))
	tm.Keys("y")
	tm.WaitFor("the run's end in the status bar", e2etest.Has("run landed"))
	tm.Keys("q")
	tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))

	id := e2etest.LastRun(t, dir)
	if got := e2etest.Git(t, dir, "show", "sentinel/"+id+":scripts/gen.sh"); got == "" {
		t.Errorf("scripts/gen.sh is gone from the landed branch: the refused rm ran")
	}
	evs := e2etest.RunEvents(t, dir, id)
	// What Sentinel decided stays as it was: it allowed both.
	js := e2etest.ApprovalsOf(t, evs)
	if len(js) != 2 || js[0].Request.Command != "rm -f scripts/gen.sh" || !js[0].Decision.Allowed() {
		t.Fatalf("approvals, want Sentinel's allow of rm then of echo:\n%s", e2etest.Describe(js))
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
		t.Errorf("effective decisions, want rm denied by claude's rules and echo allowed:\n%s", e2etest.Describe(eff))
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
