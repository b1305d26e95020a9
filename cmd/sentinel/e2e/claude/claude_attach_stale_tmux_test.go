package claude

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// TestRealClaudeAttachLeavesNoStaleText: at 80×24 under tmux, a person
// attaches to Claude Code's pane with i, types /help and leaves with
// ctrl+]: the input line settles to what Claude Code drew last, with no
// fragment of an earlier screen left behind (#37 point 3: "❯�/help e
// Code" was reported after attaching; with the pane's no-break spaces
// painted as U+FFFD the input line reads "❯�/help Claude Code").
func TestRealClaudeAttachLeavesNoStaleText(t *testing.T) {
	t.Parallel()
	e2etest.NeedClaude(t)
	dir := e2etest.ScriptRepo(t)
	model := e2etest.StartModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Ready.")),
	})
	tm := e2etest.StartSentinelSized(t, 80, 24, dir, append(e2etest.ClaudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Say you are ready.")
	tm.WaitFor("Claude Code's prompt in the coder pane", e2etest.Has("❯"))
	tm.WaitRequests(model, 1)
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
	tm.Keys("C-]")
	tm.WaitFor("attach mode left", func(s string) bool { return !strings.Contains(s, "leave attach mode") })
	t.Logf("screen after attaching:\n%s", tm.Screen())
}
