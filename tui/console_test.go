package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

func consoleEntry(id, cmd string, at time.Time) *queue.Entry {
	return &queue.Entry{ID: id, Run: "r-" + id, Project: "/src/" + id, Kind: policy.KindShell, Summary: cmd, WaitingSince: at,
		Request: approvals.Request{ID: "broker-" + id, Kind: policy.KindShell, Command: cmd},
		Verdict: policy.Verdict{Decision: policy.Ask, Rule: "net.tool", Reason: "asks"}}
}

// The console's cards follow the queue: one card per entry, oldest first,
// closed with where it was answered; a card's answer goes to the service
// under the queue's id, saying it came from the console.
func TestConsoleCardsFollowTheQueue(t *testing.T) {
	sent := make(chan queue.Answer, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(a queue.Answer) error { sent <- a; return nil })
	now := time.Now()
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("aa", "curl a", now)}))
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("bb", "curl b", now.Add(time.Second))}))
	if len(p.m.queue) != 2 || p.m.queue[0].Request.ID != "aa" {
		t.Fatalf("cards: %d, head %+v", len(p.m.queue), p.m.queue)
	}
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventClosed, ID: "aa", Reason: "answered at the terminal"}))
	if len(p.m.queue) != 1 || p.m.queue[0].Request.ID != "bb" || !strings.Contains(p.m.flash, "answered at the terminal") {
		t.Fatalf("after the head closed elsewhere: %d cards, flash %q", len(p.m.queue), p.m.flash)
	}
	p.m.queue[0].Answer(approvals.Answer{Kind: approvals.Deny, Message: "not now"})
	a := <-sent
	if a.ID != "bb" || a.Decision != queue.Deny || a.Message != "not now" || a.Via != "console" {
		t.Fatalf("the answer sent: %+v", a)
	}
	// a skip is a deny telling the coder so, never an approval
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("dd", "curl d", now)}))
	p.byID["dd"].Answer(approvals.Answer{Kind: approvals.Skip})
	if a := <-sent; a.ID != "dd" || a.Decision != queue.Deny || a.Message != approvals.SkipMessage {
		t.Fatalf("the skip sent: %+v", a)
	}
	// a resync drops what closed while the console was not watching
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("cc", "curl c", now)}))
	p.update(consoleResyncMsg{})
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: consoleEntry("cc", "curl c", now)}))
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventSynced}))
	if _, ok := p.byID["bb"]; ok || p.byID["cc"] == nil {
		t.Fatalf("after a resync: %v", p.byID)
	}
}

// The header draws runs' names through the sanitizer.
func TestConsoleHeaderIsSafe(t *testing.T) {
	p := newConsole(context.Background(), newChrome(Options{}), nil)
	p.c.width = 200
	p.update(consoleRunsMsg{{Report: queue.Report{Run: "r1\x1b]0;pwn\a", Project: "/src/evil\u202e", Coder: "cl\x1b[31maude", State: queue.StateRunning}}})
	h := p.header()
	if strings.ContainsAny(h, "\x1b\a\u202e") {
		t.Fatalf("the header carries raw control text: %q", h)
	}
}
