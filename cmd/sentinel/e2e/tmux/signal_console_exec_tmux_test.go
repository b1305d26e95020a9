package tmux

import (
	"strings"
	"testing"
)

// bellAndTitle is the tmux window's bell flag and its pane's title.
func bellAndTitle(tm *tmuxRun) (bell, title string) {
	out := strings.SplitN(strings.TrimSpace(tm.tmux("display", "-p", "-t", "e2e", "#{window_bell_flag}|#{pane_title}")), "|", 2)
	if len(out) < 2 {
		return out[0], ""
	}
	return out[0], out[1]
}

// TestConsoleRingsAndTitlesWhenACardArrives: the person who walked to the
// console and looks at another window learns that a card arrived from a
// run with no terminal: the console rings once and its title counts the
// waiting cards; answered, the title is the console's again.
func TestConsoleRingsAndTitlesWhenACardArrives(t *testing.T) {
	svc := startUserService(t, "")
	dir := scratchRepo(t)
	tm := startTmuxSized(t, 160, 50, dir, svc.env, "console")
	tm.waitArmed("the console with nothing waiting", has("0 waiting for you"))
	if bell, title := bellAndTitle(tm); bell != "0" || strings.Contains(title, "waiting") {
		t.Fatalf("before any card: bell %q, title %q", bell, title)
	}
	run := startBgRun(t, dir, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "fetch",
		"--", "sh", "-c", hookAsk("curl -fsS https://example.com/signal"))
	tm.waitArmed("the card in the console", has("curl -fsS https://example.com/signal"))
	if bell, title := bellAndTitle(tm); bell != "1" || title != "⏳ 1 waiting · sentinel console" {
		t.Errorf("a card arrived: bell %q (want 1), title %q", bell, title)
	}
	tm.keys("d")
	tm.waitFor("the deny message editor", has("message for the coder"))
	tm.keys("Enter")
	if out := run.wait(t); !strings.Contains(out, "HOOK-EXIT=2") {
		t.Fatalf("the console's deny did not reach the coder:\n%s", out)
	}
	tm.waitFor("the title without a waiting count", func(string) bool {
		_, title := bellAndTitle(tm)
		return title == "sentinel console"
	})
}
