package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// The run's end is reported when the run ends, not when the person quits
// the TUI it stays open in: sentinel status and the console say "no
// changes" while the TUI says it, not "running" (#37 point 10).
func TestTheRunEndIsReportedWhenTheRunEnds(t *testing.T) {
	var sent []string
	s := &statusReports{sendf: func(_ context.Context, r queue.Report) error { sent = append(sent, r.State); return nil }}
	s.send(queue.StateRunning)
	data, err := json.Marshal(runner.RunEnd{Status: runner.StatusLanded, State: queue.StateNoChanges})
	if err != nil {
		t.Fatal(err)
	}
	s.event(journal.Event{Lane: journal.System, Kind: runner.KindRunEnd, Data: data}, t.TempDir())
	s.send(queue.StateRunning) // nothing after the end undoes it
	if len(sent) != 2 || sent[1] != queue.StateNoChanges {
		t.Fatalf("reports sent: %q, want running then no changes", sent)
	}
}
