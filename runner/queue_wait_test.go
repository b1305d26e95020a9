package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

// queueRun is a run's containment with a journal and no broker, asking
// person (nil: no one at its terminal).
func queueRun(t *testing.T, person *approvals.PersonQueue) *containment {
	t.Helper()
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "r-q")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return &containment{runCore: &runCore{opts: Options{Project: &Project{Root: dir}, Approval: ApprovalOptions{Person: person}},
		id: "r-q", dir: dir, journal: j, adapter: &commandAdapter{argv: []string{"true"}}}}
}

// queueWaitsSaid is how many times r's journal says a request waits in the
// queue.
func queueWaitsSaid(t *testing.T, r *containment) int {
	t.Helper()
	r.journal.Sync()
	evs, err := journal.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if strings.HasPrefix(ev.Text, queueWaitLine) {
			n++
		}
	}
	return n
}

// A request waiting in the queue with no one at the run's terminal is said
// while it waits (the newcomer's unattended demo sat silent for the
// queue's whole wait), from when the queue holds it until its wait ends;
// with a person at the terminal the card is on screen and nothing is said.
// A request waiting in the queue with no one at the run's terminal is said
// while it waits (the newcomer's unattended demo sat silent for the
// queue's whole wait), from when the queue holds it until its wait ends;
// with a person at the terminal the card is on screen and nothing is said.
func TestAQueueWaitIsSaidWhileItLasts(t *testing.T) {
	t.Parallel()
	req := approvals.Request{ID: "q-1", Kind: policy.KindShell, Command: "make deploy"}
	r := queueRun(t, nil)
	ended := r.queuePerson().Posted(req, "e-1")
	if ended == nil {
		t.Fatal("a request posted with no one at the terminal starts no teller")
	}
	if !poll.Until(2*time.Minute, func() bool { return queueWaitsSaid(t, r) > 0 }) {
		t.Fatal("nothing was said while the request waited in the queue")
	}
	ended()
	if ended := queueRun(t, approvals.NewPersonQueue()).queuePerson().Posted(req, "e-2"); ended != nil {
		t.Error("a request posted with a person at the terminal is said too")
	}
}

// CI's TestQueueServiceDownIsAsToday: with no service a run asks no one in
// the queue, so it says nothing of one — not even when the views have been
// silent long enough that a teller would speak at once (as at load, after
// a slow start), and the teller started with the ask raced the missing
// service's answer. Seen failing when the wait was said from the ask on.
func TestAQueueWithNoServiceIsNeverSaid(t *testing.T) {
	// Not parallel: it sets the runtime dir and the tellers' clock.
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	every, last := tellEvery.Load(), lastSaid.Load()
	t.Cleanup(func() { tellEvery.Store(every); lastSaid.Store(last) })
	tellEvery.Store(0) // every teller speaks at once
	lastSaid.Store(time.Now().Add(-time.Hour).UnixNano())
	r := queueRun(t, nil)
	away := r.queuePerson()
	p := approvals.NewPrompt(approvals.Request{ID: "q-1", Kind: policy.KindShell, Command: "make deploy"},
		policy.Verdict{Decision: policy.Ask})
	for range 200 {
		if d, ok := away.Ask(context.Background(), p); ok {
			t.Fatalf("a queue with no service answered: %+v", d)
		}
	}
	if n := queueWaitsSaid(t, r); n > 0 {
		t.Errorf("with no service the run said %d times that a request waits in the queue", n)
	}
}
