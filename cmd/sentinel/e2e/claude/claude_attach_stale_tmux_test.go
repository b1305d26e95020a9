package claude

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
)

// TestRealClaudeAttachLeavesNoStaleText: at 80×24 under tmux, a person
// attaches to Claude Code's pane with i, types /help and leaves with
// ctrl+]: every row of the coder pane is what Claude Code drew last, with
// no fragment of an earlier screen left behind (#37 point 3: "❯�/help e
// Code" was reported after attaching; with the pane's no-break spaces
// painted as U+FFFD the input line reads "❯�/help Claude Code").
func TestRealClaudeAttachLeavesNoStaleText(t *testing.T) {
	t.Parallel()
	needClaude(t)
	dir := scriptRepo(t)
	model := startModel(t, fakemodel.Script{
		fakemodel.Reply(fakemodel.Text("Ready.")),
	})
	tm := startTmuxSized(t, 80, 24, dir, append(claudeEnv(t, model), "XDG_CONFIG_HOME="+t.TempDir()),
		"run", "--sandbox", "off", "--coder", "claude", "Say you are ready.")
	tm.waitFor("Claude Code's prompt in the coder pane", has("❯"))
	tm.waitRequests(model, 1)
	tm.keys("i")
	tm.waitFor("attach mode", has("ctrl+]"))
	tm.typeText("/help")
	s := tm.waitFor("the typed command in Claude's input line", func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "❯") && strings.Contains(line, "/help") {
				return true
			}
		}
		return false
	})
	prompt := false
	for _, line := range strings.Split(s, "\n") {
		// Claude Code's input line starts at the pane's first column (its
		// command menu's rows are indented): after what was typed there must
		// be nothing but blanks.
		if strings.HasPrefix(line, "❯") && strings.Contains(line, "/help") {
			prompt = true
			if strings.TrimSpace(line) != "❯ /help" {
				t.Errorf("stale text after the typed command: %q\n%s", line, s)
			}
		}
		if strings.ContainsRune(line, '\uFFFD') {
			t.Errorf("a replacement character on screen: %q", line)
		}
	}
	if !prompt {
		t.Errorf("Claude Code's input line is not at the pane's first column:\n%s", s)
	}
	tm.keys("C-]")
	tm.waitFor("attach mode left", func(s string) bool { return !strings.Contains(s, "leave attach mode") })
	t.Logf("screen after attaching:\n%s", tm.screen())
}
