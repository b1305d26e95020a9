package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	needClaude(t)
	dir := scratchRepo(t)
	// A home outside /tmp, as a person's is (the sandbox has its own /tmp).
	home, err := os.MkdirTemp("/var/tmp", "sentinel-home-")
	if err != nil {
		t.Skipf("no directory outside /tmp for the test home: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	rc := filepath.Join(home, ".bashrc")
	writeFile(t, rc, "export SECRET_RC=1\n")
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Checking your shell setup."), fakemodel.ToolUse("Read", map[string]any{"file_path": rc})),
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Bash("mytool deploy --prod")}},
		{When: fakemodel.AfterToolResult, Blocks: []fakemodel.Block{fakemodel.Text("Done for now.")}},
	})
	env := append(claudeEnv(t, model), "HOME="+home, "XDG_CONFIG_HOME="+t.TempDir())
	tm := startTmux(t, dir, env, "run", "--coder", "claude", "--allow-host", modelHost(model), "Look at my bashrc.")

	tm.waitFor("the hidden-path denial", has("approving cannot give access"))
	tm.waitArmed("the card for the next request", has("mytool deploy --prod", "[a] approve once"))
	tm.keys("d")
	tm.waitFor("the deny message prompt", has("message for the coder"))
	tm.keys("Enter")
	tm.waitRequests(model, 3)

	rs := toolResults(model)
	if len(rs) < 1 || !rs[0].IsError || !strings.Contains(rs[0].Content, "approving cannot give access") || strings.Contains(rs[0].Content, "SECRET_RC") {
		t.Errorf("the model was not told why the Read was refused: %s", jsonOf(rs))
	}
	tm.keys("q")
	tm.waitFor("the quit confirmation", has("Stop the run and quit?"))
	tm.keys("y")
	tm.waitFor("sentinel to exit", has("SENTINEL-EXITED"))

	js := approvalsOf(t, runEvents(t, dir, lastRun(t, dir)))
	if len(js) != 2 || js[0].Request.Path != rc || js[0].Decision.Allowed() || js[0].Decision.By != "sandbox" ||
		js[1].Request.Command != "mytool deploy --prod" || js[1].Decision.By != "person" {
		t.Errorf("approvals, want the Read denied by the sandbox (never offered), then the person's card:\n%s", describe(js))
	}
}
