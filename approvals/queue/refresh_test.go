package queue

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// A run that ended awaiting review is read again from its records when a
// review asks (status.refresh): the state is the records', never the
// caller's; a run still running keeps its own reports.
func TestRefreshReadsAnEndedRunAgainFromItsRecords(t *testing.T) {
	q := New(nil)
	records := map[string]string{"reviewed": StateLanded, "alive": StateLanded}
	q.SetSettler(func(ctx context.Context, project, run string) string { return records[run] })
	now := time.Now()
	if err := q.Report(servicewire.Peer{PID: deadPID(t)}, Report{Run: "reviewed", Project: "/src/p", State: StateAwaitingReview, Started: now}); err != nil {
		t.Fatal(err)
	}
	if err := q.Report(servicewire.Peer{PID: os.Getpid()}, Report{Run: "alive", Project: "/src/p", State: StateRunning, Started: now}); err != nil {
		t.Fatal(err)
	}
	if err := q.Refresh(context.Background(), "/src/p", "reviewed"); err != nil {
		t.Fatal(err)
	}
	if err := q.Refresh(context.Background(), "/src/p", "alive"); err == nil {
		t.Error("a refresh of a running run was taken")
	}
	if err := q.Refresh(context.Background(), "/src/p", "never-reported"); err != nil {
		t.Errorf("a refresh of a run the service never heard of: %v", err)
	}
	if err := q.Refresh(context.Background(), "relative", "reviewed"); err == nil {
		t.Error("a refresh with a relative project was taken")
	}
	got := map[string]string{}
	for _, st := range q.Statuses() {
		got[st.Run] = st.State
	}
	if got["reviewed"] != StateLanded || got["alive"] != StateRunning || len(got) != 2 {
		t.Fatalf("after the refreshes: %v", got)
	}
}
