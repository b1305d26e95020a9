package plain

import (
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// A coder that goes quiet under --plain (Claude Code waiting for input
// after its model refused the request) is told, at After and then at each
// doubling; one that prints, or waits for the person's answer, is not.
func TestQuietTellsACoderThatShowsNothing(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	q := &Quiet{After: 60 * time.Second}
	if line := q.Due(at(600)); line != "" {
		t.Fatalf("told before the coder started: %q", line)
	}
	q.See(journal.Event{Lane: journal.System, Kind: runner.KindCoderStart, Text: "coder claude started"}, at(0))
	if line := q.Due(at(59)); line != "" {
		t.Fatalf("told at 59s: %q", line)
	}
	line := q.Due(at(60))
	if !strings.Contains(line, "shown nothing and asked for nothing for 1m0s") || !strings.Contains(line, "Ctrl-C") {
		t.Fatalf("at 60s: %q", line)
	}
	if line := q.Due(at(61)); line != "" {
		t.Fatalf("told again a second later: %q", line)
	}
	if line := q.Due(at(120)); !strings.Contains(line, "for 2m0s") {
		t.Fatalf("at 120s: %q", line)
	}
	// Output is a sign of life: the count starts again.
	q.See(journal.Event{Lane: journal.Coder, Kind: coderstream.Output, Text: "✻ Thinking…"}, at(130))
	if line := q.Due(at(189)); line != "" {
		t.Fatalf("told 59s after output: %q", line)
	}
	// A request waits for the person: not the coder's silence.
	req := journal.Event{Lane: journal.Approval, Kind: approvals.KindRequest, Data: []byte(`{"id":"r1","tool":"Bash"}`)}
	if _, ok := approvals.AsRequest(req); !ok {
		t.Fatal("the test's request does not decode as one")
	}
	q.See(req, at(190))
	if line := q.Due(at(900)); line != "" {
		t.Fatalf("told while a request waits for the person: %q", line)
	}
	q.See(journal.Event{Lane: journal.Approval, Kind: approvals.KindDecision, Data: []byte(`{"id":"r1","decision":"allow"}`)}, at(950))
	// Claude Code's turn ends on the model's error, then it says it waits:
	// told at once, and its notice is no sign of life.
	q.See(journal.Event{Lane: journal.Coder, Kind: coderstream.CoderStopFailure, Text: "StopFailure: model_not_found"}, at(951))
	if line := q.Due(at(952)); !strings.Contains(line, "ended on an error (StopFailure: model_not_found)") {
		t.Fatalf("a failed turn: %q", line)
	}
	q.See(journal.Event{Lane: journal.Coder, Kind: coderstream.Notification, Text: "Claude is waiting for your input"}, at(1000))
	if line := q.Due(at(1010)); !strings.Contains(line, "for 1m0s") {
		t.Fatalf("the notice counted as life: %q", line)
	}
	// Once the coder has ended, nothing is told.
	q.See(journal.Event{Lane: journal.System, Kind: runner.KindCoderExit}, at(901))
	if line := q.Due(at(5000)); line != "" {
		t.Fatalf("told after the coder ended: %q", line)
	}
}

// FollowQuiet prints what Quiet tells on a tick, as a system line, between
// the run's own lines.
func TestFollowQuietPrintsTheNotice(t *testing.T) {
	var out strings.Builder
	p := NewPrinter(&out, nil)
	events := make(chan journal.Event)
	tick := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		p.FollowQuiet(events, &Quiet{After: time.Minute}, tick)
		close(done)
	}()
	events <- journal.Event{Lane: journal.System, Kind: runner.KindCoderStart, Text: "coder claude started"}
	tick <- time.Now().Add(time.Second)
	tick <- time.Now().Add(2 * time.Minute)
	close(events)
	<-done
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "coder claude started") ||
		!strings.HasPrefix(lines[1], "[SYSTEM] the coder has shown nothing and asked for nothing for 2m") {
		t.Fatalf("printed:\n%s", out.String())
	}
}
