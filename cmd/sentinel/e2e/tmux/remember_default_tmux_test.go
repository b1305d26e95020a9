package tmux

import (
	"path/filepath"
	"strings"
	"testing"
)

// rememberScenario asks twice: two commands the policy asks about.
const rememberScenario = `
name = "remember"

[[steps]]
id = "test"
shell = "mytool run test"

[[steps]]
id = "lint"
shell = "mytool run lint"
`

// TestRememberDefaultKeysLastBeyondTheRun: at the card, "approve +
// remember" with the default keys (r, then enter) and Claude Code's "2"
// (yes, don't ask again) remember for the project: the chooser says where,
// and after the run `sentinel templates list` shows both grants. A run-only
// default would leave the list empty and ask again next run.
func TestRememberDefaultKeysLastBeyondTheRun(t *testing.T) {
	dir := scratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "remember.toml")
	writeFile(t, scenario, rememberScenario)
	cfg, state := t.TempDir(), t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + state}
	tm := startTmux(t, dir, env, "run", "--coder", "demo", "--scenario", scenario, "Remember two commands.")
	tm.waitArmed("the card for the test run", has("command  mytool run test"))
	tm.pressUntil("r", "the remember chooser", has("REMEMBER · how broad?"))
	tm.waitFor("where the grant is kept", has("[project]", "kept in .sentinel/templates.toml"))
	tm.keys("Enter")
	tm.waitArmed("the card for the lint run", has("command  mytool run lint"))
	tm.pressUntil("2", "the lint card answered", func(s string) bool { return !strings.Contains(s, "command  mytool run lint") })
	list := sentinel(t, dir, env, "templates", "list")
	if list.code != 0 || !strings.Contains(list.stdout, "mytool run test") || !strings.Contains(list.stdout, "mytool run lint") {
		t.Fatalf("templates list (exit %d) does not show both remembered commands:\n%s%s\nscreen:\n%s", list.code, list.stdout, list.stderr, tm.screen())
	}
}
