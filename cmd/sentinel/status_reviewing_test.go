package main

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// sentinel status counts a live run whose review is open as waiting for
// the person, and says where that review is (`sentinel review` would not
// open it while the run lives); a run awaiting review is told how.
func TestStatusCountsALiveReviewAsWaiting(t *testing.T) {
	var b strings.Builder
	writeAwaiting(&b, []queue.RunStatus{
		{Report: queue.Report{Run: "r1", Project: "/src/a", State: queue.StateReviewing}},
		{Report: queue.Report{Run: "r2", Project: "/src/b", State: queue.StateAwaitingReview}},
		{Report: queue.Report{Run: "r3", Project: "/src/c", State: queue.StateRunning}},
	})
	for _, want := range []string{
		"2 waiting for you (0 request(s), 2 run(s) awaiting review):",
		"run r1: its review is open on its own screen   (in /src/a)",
		"sentinel review r2   (in /src/b)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, b.String())
		}
	}
}
