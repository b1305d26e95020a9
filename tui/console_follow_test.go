package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// TestConsoleShowsTheRunOfTheCardOnScreen: the console's status bar, lanes
// and run list show the run whose card the person is answering, not the
// run picked before the card came; when that card is answered the next
// card's run is shown; < and > wait until the cards are answered (the
// status bar had shown the latest run over another run's card).
func TestConsoleShowsTheRunOfTheCardOnScreen(t *testing.T) {
	sent := make(chan queue.Answer, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clk := &clock{now: time.Now()}
	c := newChrome(Options{NoColor: true, Now: clk.Now})
	p := newConsole(ctx, c, func(a queue.Answer) error { sent <- a; return nil })
	r := newRoot(c, p)
	r.Update(teaSize(120, 40))
	now := clk.Now()
	var runs consoleRunsMsg
	for _, id := range []string{"aa", "bb", "cc"} {
		runs = append(runs, queue.RunStatus{Report: queue.Report{Run: "r-" + id, Project: "/src/" + id, Coder: "coder-" + id, State: queue.StateRunning, Started: now}, Updated: now})
	}
	r.Update(runs)
	statusRun := func() string {
		var top string // the status bar: the row with the run's counts
		for _, l := range strings.Split(ansi.Strip(r.render()), "\n") {
			if strings.Contains(l, "✓0 ?") {
				top = l
				break
			}
		}
		for _, id := range []string{"r-aa", "r-bb", "r-cc"} {
			if strings.Contains(top, id) {
				return id
			}
		}
		t.Fatalf("no run on the status bar: %q", top)
		return ""
	}
	if got := statusRun(); got != "r-cc" {
		t.Fatalf("with no card the latest run is shown; got %s:\n%s", got, ansi.Strip(r.render()))
	}
	r.Update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("aa", "curl a", now)}))
	r.Update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("bb", "curl b", now)}))
	r.Update(runs) // the next poll keeps it
	if got := statusRun(); got != "r-aa" {
		t.Fatalf("the card of r-aa is on screen and the status bar shows %s:\n%s", got, ansi.Strip(r.render()))
	}
	clk.Add(DefaultGuard)
	r.Update(keyMsg(">"))
	if got := statusRun(); got != "r-aa" || !strings.Contains(ansi.Strip(r.render()), "a card waits") {
		t.Fatalf("> over a card picked %s:\n%s", got, ansi.Strip(r.render()))
	}
	r.Update(keyMsg("3")) // no, for r-aa's card, with no message
	r.Update(keyMsg("enter"))
	select {
	case a := <-sent:
		if a.ID != "aa" || a.Decision != queue.Deny {
			t.Fatalf("3 sent %+v", a)
		}
	case <-time.After(10 * time.Second): // a bound on a hang
		t.Fatalf("3 and enter sent nothing:\n%s", ansi.Strip(r.render()))
	}
	if got := statusRun(); got != "r-bb" {
		t.Fatalf("r-bb's card is up and the status bar shows %s:\n%s", got, ansi.Strip(r.render()))
	}
}
