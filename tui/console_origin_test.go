package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals/queue"
)

// TestConsoleXDeniesOneRunsFloodAfterNamingIt: a console card says which
// run and project it is from; X asks first, naming the count and the run,
// and y denies only that run's requests of the kind — another project's
// request of the same kind keeps waiting.
func TestConsoleXDeniesOneRunsFloodAfterNamingIt(t *testing.T) {
	sent := make(chan queue.Answer, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(a queue.Answer) error { sent <- a; return nil })
	p.c.width, p.c.height = 120, 40
	now := time.Now()
	a1, a2, b := consoleEntry("aa", "curl a", now), consoleEntry("aa2", "curl a2", now.Add(time.Second)), consoleEntry("bb", "curl b", now.Add(2*time.Second))
	a2.Run, a2.Project = a1.Run, a1.Project
	for _, e := range []*queue.Entry{a1, a2, b} {
		p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: e}))
	}
	s := ansi.Strip(p.render())
	if !strings.Contains(s, "run      run r-aa in src/aa") {
		t.Fatalf("the card does not say which run and project it is from:\n%s", s)
	}
	p.key(keyMsg("X"))
	s = ansi.Strip(p.render())
	if !strings.Contains(s, "Deny all 2 pending shell request(s) of run r-aa in src/aa?") {
		t.Fatalf("X does not ask first, naming the count and the run:\n%s", s)
	}
	if len(sent) != 0 {
		t.Fatalf("X denied before the confirmation: %d answer(s) sent", len(sent))
	}
	p.key(keyMsg("y"))
	apply(channelBroker{}, p.take()) // as the root does after a key
	got := map[string]bool{}
	for i := 0; i < 2; i++ {
		select {
		case a := <-sent:
			got[a.ID] = a.Decision == queue.Deny
		case <-time.After(10 * time.Second): // a bound on a hang
			t.Fatalf("only %d answer(s) sent: %v", i, got)
		}
	}
	if !got["aa"] || !got["aa2"] {
		t.Fatalf("X, y did not deny both of run r-aa's requests: %v", got)
	}
	if len(p.m.queue) != 1 || p.m.queue[0].Request.ID != "bb" {
		t.Fatalf("another project's request must keep waiting; queue %v", p.m.queue)
	}
}

// TestConsoleListsLiveAndRecentRunsOnly: ended runs of long ago are counted,
// not listed; the running one is listed.
func TestConsoleListsLiveAndRecentRunsOnly(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width = 160
	old := time.Now().Add(-2 * time.Hour)
	var runs consoleRunsMsg
	for _, id := range []string{"r-old1", "r-old2", "r-old3", "r-old4", "r-old5", "r-old6", "r-old7"} {
		runs = append(runs, queue.RunStatus{Report: queue.Report{Run: id, Project: "/src/p", State: queue.StateLanded, Started: old}, Updated: old})
	}
	runs = append(runs, queue.RunStatus{Report: queue.Report{Run: "r-live", Project: "/src/p", State: queue.StateRunning, Started: old}, Updated: old})
	p.update(runs)
	h := p.header()
	if !strings.Contains(h, "r-live") || strings.Contains(h, "r-old1") || strings.Contains(h, "r-old6") {
		t.Fatalf("the header should list the live run and not the history:\n%s", h)
	}
	if !strings.Contains(h, "+ 7 earlier or ended run(s) not listed") {
		t.Fatalf("the header does not count the runs it left out:\n%s", h)
	}
}
