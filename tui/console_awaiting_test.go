package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A run whose change awaits the person's review counts as waiting for them
// in the console's header, which says how to review it there (#37 point 10).
func TestConsoleCountsARunAwaitingReviewAsWaiting(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width = 300
	p.update(consoleRunsMsg{{Report: queue.Report{Run: "r1", Project: "/src/p", Coder: "claude",
		State: queue.StateAwaitingReview + queue.RecoverySuffix}}})
	h := p.header()
	if !strings.Contains(h, "1 waiting for you") || !strings.Contains(h, "R reviews r1") ||
		!strings.Contains(h, "awaiting-review (recovery)") {
		t.Fatalf("the header does not count the run awaiting review as waiting:\n%s", h)
	}
}

// R opens the review of the run that waits for it — the selected one when
// it waits, else the first that does — as `sentinel review ID` in its
// project; with none waiting it says so and runs nothing.
func TestConsoleROpensTheReviewOfTheRunThatWaits(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.update(consoleRunsMsg{
		{Report: queue.Report{Run: "r1", Project: "/src/a", State: queue.StateRunning}},
		{Report: queue.Report{Run: "r2", Project: "/src/b", State: queue.StateAwaitingReview}},
		{Report: queue.Report{Run: "r3", Project: "/src/c", State: queue.StateLanded}},
		{Report: queue.Report{Run: "r4", Project: "/src/d", State: queue.StateAwaitingReview}},
	})
	p.selectRun(runKeyOf(p.runs[0]))
	r, ok := p.reviewTarget()
	if !ok || r.Run != "r2" {
		t.Fatalf("R would review %+v (%v), want r2", r, ok)
	}
	p.c.width = 300
	if h := p.header(); !strings.Contains(h, "R reviews r2") {
		t.Fatalf("the header does not name the run R opens:\n%s", h)
	}
	cmd, err := reviewCommand(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cmd.Args[1:], " "); got != "review r2" || cmd.Dir != "/src/b" {
		t.Fatalf("R runs %q in %q, want review r2 in /src/b", got, cmd.Dir)
	}
	if p.key(tea.KeyPressMsg{Code: 'R', Text: "R"}) == nil {
		t.Fatal("R with a run awaiting review did nothing")
	}

	none := newConsole(context.Background(), newChrome(Options{}), nil)
	none.update(consoleRunsMsg{{Report: queue.Report{Run: "r1", Project: "/src/a", State: queue.StateLanded}}})
	if none.key(tea.KeyPressMsg{Code: 'R', Text: "R"}) != nil || !strings.Contains(none.m.flash, "no run waits for your review") {
		t.Fatalf("R with nothing to review: flash %q", none.m.flash)
	}
}

// Two journal reads in flight bring the same events; each is drawn once.
func TestConsoleDrawsAJournalEventOnce(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.update(consoleRunsMsg{{Report: queue.Report{Run: "r1", Project: "/src/a", State: queue.StateRunning}}})
	ev := journal.Event{Seq: 7, Run: "r1", Lane: journal.System, Kind: "notice", Text: "after review: applied 1 file(s)"}
	p.update(consoleJournalMsg{key: p.sel, events: []journal.Event{ev}})
	p.update(consoleJournalMsg{key: p.sel, events: []journal.Event{ev}})
	p.c.width, p.c.height = 160, 40
	if n := strings.Count(p.render(), "after review: applied 1 file(s)"); n != 1 {
		t.Fatalf("the event is drawn %d times", n)
	}
}
