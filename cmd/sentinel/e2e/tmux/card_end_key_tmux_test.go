package tmux

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestCardPagesAndEndKeyUnderTmux: the real binary at 80×24 with a CI
// workflow whose last line runs a script from the network. pgdn pages the
// card's change, 1 approves nothing before the last row was shown, End
// shows it (the counter at its last row) and then 1 approves; Home goes
// back to the first row on the way.
func TestCardPagesAndEndKeyUnderTmux(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	scenario := filepath.Join(t.TempDir(), "unseen.toml")
	e2etest.WriteFile(t, scenario, unseenTailScenario())
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()}
	tm := e2etest.StartSentinelSized(t, 80, 24, dir, env, "run", "--coder", "demo", "--scenario", scenario, "Write the workflow.")
	s := tm.WaitArmed("the workflow card", e2etest.Has("path     .github/workflows/ci.yml"))
	first := cardRowsEnd.FindStringSubmatch(s)
	if first == nil || first[1] == first[2] {
		t.Fatalf("at 80x24 the workflow card should show only part of its rows:\n%s", s)
	}
	tm.Keys("PageDown")
	s = tm.WaitFor("a page on", func(s string) bool {
		return strings.Contains(s, "rows "+first[1]) || !strings.Contains(s, "rows 1–")
	})
	t.Logf("after pgdn:\n%s", s)
	tm.Keys("Home")
	tm.WaitFor("back at the first row", e2etest.Has("rows 1–"))
	tm.Keys("1")
	s = tm.WaitFor("approve refused", e2etest.Has("approve waits"))
	if !strings.Contains(s, "path     .github/workflows/ci.yml") {
		t.Fatalf("1 answered the card before its last row was shown:\n%s", s)
	}
	tm.Keys("End")
	s = tm.WaitFor("the card's last row", func(s string) bool {
		m := cardRowsEnd.FindStringSubmatch(s)
		return m != nil && m[1] == m[2]
	})
	t.Logf("after End:\n%s", s)
	if !strings.Contains(s, "pgup pgdn g G [ ] scroll") {
		t.Errorf("the card's counter does not name its scroll keys:\n%s", s)
	}
	tm.PressUntil("1", "the card answered", func(s string) bool { return !strings.Contains(s, "path     .github/workflows/ci.yml") })
}
