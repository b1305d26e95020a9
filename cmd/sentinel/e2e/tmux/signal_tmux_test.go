package tmux

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestACardRingsAndTitlesTheTerminal: a person who looks at another window
// learns that a card waits — the run's TUI rings the bell (tmux raises the
// window's bell flag) and the title says how many wait; once answered, the
// title is the run's again.
func TestACardRingsAndTitlesTheTerminal(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "workflow.toml")
	writeFile(t, scenario, workflowScenario)
	tm := startTmux(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()},
		"run", "--coder", "demo", "--scenario", scenario, "Add CI.")
	tm.waitArmed("the card for the workflow", has("APPROVAL · write"))
	flags := func() (bell, title string) {
		out := strings.SplitN(strings.TrimSpace(tm.tmux("display", "-p", "-t", "e2e", "#{window_bell_flag}|#{pane_title}")), "|", 2)
		if len(out) < 2 {
			return out[0], ""
		}
		return out[0], out[1]
	}
	bell, title := flags()
	if bell != "1" {
		t.Errorf("the card did not ring the bell (window_bell_flag=%q)", bell)
	}
	if !strings.HasPrefix(title, "⏳ 1 waiting · sentinel · ") {
		t.Errorf("the title does not say a card waits: %q", title)
	}
	tm.keys("d")
	tm.waitFor("the deny message prompt", has("message for the coder"))
	tm.keys("Enter")
	tm.waitFor("the card answered", func(string) bool {
		_, title := flags()
		return strings.HasPrefix(title, "sentinel · ")
	})
}
