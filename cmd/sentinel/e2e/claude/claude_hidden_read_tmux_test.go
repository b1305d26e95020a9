package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// TestRealClaudeReadOfAHiddenHomeFileIsNotOffered: a person at the
// terminal, the sandbox on, and Claude Code asks to Read ~/.bashrc. The
// sandbox does not show the home directory, so approving could only end in
// "File does not exist": no card offers it. The screen says approving
// cannot give access, the model is told why, and the next request the
// policy asks about still gets a card.
func TestRealClaudeReadOfAHiddenHomeFileIsNotOffered(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScratchRepo(t)
	// A home outside /tmp, as a person's is (the sandbox has its own /tmp).
	home, err := os.MkdirTemp("/var/tmp", "sentinel-home-")
	if err != nil {
		t.Skipf("no directory outside /tmp for the test home: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	rc := filepath.Join(home, ".bashrc")
	e2etest.WriteFile(t, rc, "export SECRET_RC=1\n")
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Checking your shell setup."), fakemodel.ToolUse("Read", map[string]any{"file_path": rc})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("mytool deploy --prod")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done for now.")}},
	})
	env := append(e2etest.ClaudeEnv(t, model), "HOME="+home, "XDG_CONFIG_HOME="+t.TempDir())
	tm := e2etest.StartSentinel(t, dir, env, "run", "--coder", "claude", "--allow-host", e2etest.ModelHost(model), "Look at my bashrc.")

	tm.WaitFor("the hidden-path denial", e2etest.Has("approving cannot give access"))
	tm.WaitArmed("the card for the next request", e2etest.Has("mytool deploy --prod", "[a] approve once"))
	tm.Keys("d")
	tm.WaitFor("the deny message prompt", e2etest.Has("message for the coder"))
	tm.Keys("Enter")
	tm.WaitRequests(model, 3)

	rs := e2etest.ToolResults(model)
	if len(rs) < 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "approving cannot give access") || strings.Contains(rs[0].Content, "SECRET_RC") {
		t.Errorf("the model was not told why the Read was refused: %s", e2etest.JSONOf(rs))
	}
	tm.Keys("q")
	tm.WaitFor("the quit confirmation", e2etest.Has("Stop the run and quit?"))
	tm.Keys("y")
	tm.WaitFor("sentinel to exit", e2etest.Has("SENTINEL-EXITED"))

	js := e2etest.ApprovalsOf(t, e2etest.RunEvents(t, dir, e2etest.LastRun(t, dir)))
	if len(js) != 2 || js[0].Request.Path != rc || js[0].Decision.Allowed() || js[0].Decision.By != "sandbox" ||
		js[1].Request.Command != "mytool deploy --prod" || js[1].Decision.By != "person" {
		t.Errorf("approvals, want the Read denied by the sandbox (never offered), then the person's card:\n%s", e2etest.Describe(js))
	}
}
