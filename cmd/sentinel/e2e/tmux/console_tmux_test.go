package tmux

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestConsoleAnswersCardsByKey: with the service up and two runs in two
// projects with no terminal, sentinel console under tmux shows every run
// with its state and the cards across runs, oldest first; a approves one
// and d with a message denies the other, and each reaches its coder.
func TestConsoleAnswersCardsByKey(t *testing.T) {
	t.Parallel()
	svc := startUserService(t, "")
	one, two := e2etest.ScratchRepo(t), e2etest.ScratchRepo(t)
	runOne := startBgRun(t, one, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "fetch one",
		"--", "sh", "-c", hookAsk("curl -fsS https://example.com/one"))
	svc.waitFor(t, "run one's card in the queue", func() bool { _, ok := projectOf(svc.pending(t), one); return ok })
	runTwo := startBgRun(t, two, svc.env, "run", "--plain", "--apply", "none", "--coder", "command", "fetch two",
		"--", "sh", "-c", hookAsk("curl -fsS https://example.org/two"))
	svc.waitFor(t, "run two's card in the queue", func() bool { _, ok := projectOf(svc.pending(t), two); return ok })

	tm := e2etest.StartSentinelSized(t, 160, 50, one, svc.env, "console")
	tm.WaitArmed("the console with both runs and the oldest card", func(s string) bool {
		return containsAll(s, "2 run(s)", "2 waiting for you", "waiting for you", "curl -fsS https://example.com/one")
	})
	tm.Keys("2") // yes, and don't ask again: remembered, as at a run's own card
	out1 := runOne.wait(t)
	if !containsAll(out1, "approved and remembered in the console", "HOOK-EXIT=0") {
		t.Fatalf("the console's approval did not reach run one's coder:\n%s", out1)
	}
	if tpl, err := os.ReadFile(filepath.Join(one, ".sentinel", "templates.toml")); err != nil || !strings.Contains(string(tpl), "https://example.com/one") {
		t.Fatalf("the console's remembered approval is not in project one's templates: %v\n%s", err, tpl)
	}
	tm.WaitArmed("the next card, run two's", func(s string) bool {
		return containsAll(s, "curl -fsS https://example.org/two", "1 waiting for you")
	})
	tm.Keys("d")
	tm.WaitFor("the deny message editor", func(s string) bool { return strings.Contains(s, "message for the coder") })
	tm.TypeText("try the mirror instead")
	tm.Keys("Enter")
	out2 := runTwo.wait(t)
	if !containsAll(out2, "denied in the console: try the mirror instead", "HOOK-EXIT=2") {
		t.Fatalf("the console's deny did not reach run two's coder:\n%s", out2)
	}
	tm.WaitFor("both runs ended, nothing waiting", func(s string) bool {
		return containsAll(s, "0 waiting for you") && strings.Count(s, "no changes") >= 2 // runs that changed nothing say so (runner.State)
	})
	tm.Keys("q")
	tm.WaitFor("the console to quit", func(s string) bool { return strings.Contains(s, "SENTINEL-EXITED 0") })
}

// TestQueueBesideTheTerminal: a run with a person at its terminal shows
// the card there and in the queue. Answered from the queue, the terminal's
// card closes saying so; answered at the terminal, the queue's entry
// closes with "answered at the terminal".
func TestQueueBesideTheTerminal(t *testing.T) {
	t.Parallel()
	svc := startUserService(t, "")
	dir := e2etest.ScratchRepo(t)
	script := hookAsk("curl -fsS https://example.com/first") + "; " + hookAsk("curl -fsS https://example.com/second") + "; sleep 600"
	tm := e2etest.StartSentinelSized(t, 160, 50, dir, svc.env, "run", "--apply", "none", "--coder", "command", "fetch twice", "--", "sh", "-c", script)
	var first queueEntryJSON
	svc.waitFor(t, "the first card in the queue", func() bool {
		for _, e := range svc.pending(t) {
			if strings.Contains(e.Summary, "/first") {
				first = e
				return true
			}
		}
		return false
	})
	tm.WaitFor("the first card at the terminal", func(s string) bool { return strings.Contains(s, "curl -fsS https://example.com/first") })
	if r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", first.ID); r.Code != 0 {
		t.Fatalf("queue approve: %d %s", r.Code, r.Stderr)
	}
	tm.WaitFor("the terminal's card closed saying where it was answered", func(s string) bool {
		return containsAll(s, "decided elsewhere", "approved once in the queue")
	})
	var second queueEntryJSON
	svc.waitFor(t, "the second card in the queue", func() bool {
		for _, e := range svc.pending(t) {
			if strings.Contains(e.Summary, "/second") {
				second = e
				return true
			}
		}
		return false
	})
	tm.WaitArmed("the second card at the terminal", func(s string) bool {
		return strings.Contains(s, "command  curl -fsS https://example.com/second")
	})
	tm.Keys("a")
	svc.waitFor(t, "the queue's entry to close", func() bool {
		for _, e := range svc.pending(t) {
			if e.ID == second.ID {
				return false
			}
		}
		return true
	})
	r := e2etest.Sentinel(t, "", svc.env, "queue", "approve", second.ID)
	if r.Code == 0 || !strings.Contains(r.Stderr, "answered at the terminal") {
		t.Fatalf("the queue's entry did not close with 'answered at the terminal': %d %q", r.Code, r.Stderr)
	}
	j := journalOf(t, dir)
	if !containsAll(j, "approved once in the queue", "approved once") {
		t.Fatalf("journal:\n%s", j)
	}
}
