package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// A run whose change awaits the person's review counts as waiting for them
// in the console's header, which says how to review it (#37 point 10).
func TestConsoleCountsARunAwaitingReviewAsWaiting(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width = 300
	p.update(consoleRunsMsg{{Report: queue.Report{Run: "r1", Project: "/src/p", Coder: "claude",
		State: queue.StateAwaitingReview + queue.RecoverySuffix}}})
	h := p.header()
	if !strings.Contains(h, "1 waiting for you") || !strings.Contains(h, "sentinel review r1") ||
		!strings.Contains(h, "awaiting-review (recovery)") {
		t.Fatalf("the header does not count the run awaiting review as waiting:\n%s", h)
	}
}
