package tmux

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

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
