package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// At 60×15 the console lists few runs, the one waiting for the person
// among them, and each run's state whole (#37 point 6).
func TestConsoleRunListFits60x15(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width, p.c.height = 60, 15
	now := time.Now()
	var runs consoleRunsMsg
	for _, id := range []string{"20261206-055600-ca6694", "20261206-055902-2ba66e", "20261206-055943-589e52", "20261206-060209-aff077", "20261206-060948-f575b6"} {
		runs = append(runs, queue.RunStatus{Report: queue.Report{Run: id, Project: "/tmp/rp/projB", State: queue.StateInterrupted + queue.RecoverySuffix, Started: now}, Updated: now})
	}
	runs[0].State = queue.StateAwaitingReview
	p.update(runs)
	h := p.header()
	lines := strings.Split(h, "\n")
	if len(lines) > 1+1+p.consoleRunRows() || p.consoleRunRows() > 3 {
		t.Fatalf("the run list takes %d of 15 rows:\n%s", len(lines), h)
	}
	if !strings.Contains(h, "awaiting-review") || !strings.Contains(h, "…ca6694") {
		t.Fatalf("the run waiting for the person is not listed:\n%s", h)
	}
	if !strings.Contains(h, "interrupted (recovery)") {
		t.Fatalf("a run's state is cut at 60 columns:\n%s", h)
	}
}
