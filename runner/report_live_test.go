package runner

import (
	"fmt"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// The live reports' keeper holds what the reports show, not the run: after
// a coder streams 200,000 chunks of test output between a few tool calls
// and decisions, it holds the decisions and the latest activity only, and
// the reports it renders are those rendered from every event.
func TestLiveReportKeepsABoundedWindowOfACoderThatPrintsForHours(t *testing.T) {
	t.Parallel()
	var live liveReport
	var all []journal.Event
	seq := int64(0)
	add := func(e journal.Event) {
		seq++
		e.Seq = seq
		e.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Add(time.Duration(seq) * time.Millisecond)
		live.observe(e)
		if !e.Is(journal.Coder, coderstream.Output) { // the full list without the flood, to compare against
			all = append(all, e)
		}
	}
	add(ev(journal.Supervisor, KindStanding, "no network", `{"text":"never touch the network"}`))
	const chunks = 200_000
	for i := 0; i < chunks; i++ {
		add(ev(journal.Coder, coderstream.Output, "ok  \tgithub.com/example/pkg\t0.01s\r\n", ""))
		if i%10_000 == 0 {
			id := fmt.Sprintf("a-%d", i)
			add(ev(journal.Approval, "request", "shell: go test", `{"id":"`+id+`","kind":"shell","command":"go test"}`))
			add(ev(journal.Approval, "decision", "allowed", `{"request_id":"`+id+`","decision":"allow","by":"policy:read"}`))
			add(ev(journal.Tool, "result", fmt.Sprintf("go test → exit 0 (%d)", i), `{}`))
		}
	}
	// 20 requests, 20 decisions, 1 standing decision, 20 activity lines
	if n := live.retained(); n > 2*(chunks/10_000)+1+latestActivity {
		t.Fatalf("the live reports keep %d events after %d chunks of output; they must keep only what they show", n, chunks)
	}
	m := &Meta{ID: "r1", Task: "t", Coder: "command", Status: StatusRunning}
	now := m.Started.Add(time.Hour)
	if got, want := renderProgress(m, live.events(), now), renderProgress(m, all, now); got != want {
		t.Fatalf("PROGRESS.md from the keeper:\n%s\nfrom every event:\n%s", got, want)
	}
	if got, want := renderDecisions(m, live.events()), renderDecisions(m, all); got != want {
		t.Fatalf("DECISIONS.md from the keeper:\n%s\nfrom every event:\n%s", got, want)
	}
}
