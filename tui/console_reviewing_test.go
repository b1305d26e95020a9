package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// A live run whose review is open on its own screen waits for the person:
// the console's header counts it (issue 37.10: "0 waiting for you" beside
// two runs in review), and R says where that review is instead of "no run
// waits for your review".
func TestConsoleCountsALiveReviewAsWaiting(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width = 300
	p.update(consoleRunsMsg{
		{Report: queue.Report{Run: "r1", Project: "/src/a", Coder: "demo", State: queue.StateReviewing}},
		{Report: queue.Report{Run: "r2", Project: "/src/b", Coder: "demo", State: queue.StateRunning}},
	})
	if h := p.header(); !strings.Contains(h, "1 waiting for you") {
		t.Fatalf("the header does not count the run in review:\n%s", h)
	}
	if p.key(tea.KeyPressMsg{Code: 'R', Text: "R"}) != nil || !strings.Contains(p.m.flash, "run r1's review is open on its own screen") {
		t.Fatalf("R with a live review: flash %q", p.m.flash)
	}
}
