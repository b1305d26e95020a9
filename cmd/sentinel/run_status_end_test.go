package main

import (
	"context"
	"testing"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// A review event handled after the run's final report does not turn the
// run back to "running" in sentinel status and the console (#37 point 10).
func TestNoReportAfterTheFinalOne(t *testing.T) {
	var sent []string
	s := &statusReports{sendf: func(_ context.Context, r queue.Report) error { sent = append(sent, r.State); return nil }}
	s.send(queue.StateRunning)
	s.sendFinal(queue.StateNoChanges)
	s.send(queue.StateRunning) // a late KindReviewApproved
	if len(sent) != 2 || sent[1] != queue.StateNoChanges {
		t.Fatalf("reports sent: %q, want running then no changes", sent)
	}
}
