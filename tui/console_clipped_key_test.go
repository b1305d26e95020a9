package tui

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// TestConsoleKeysJudgeTheCardAsDrawn: the console draws a card below its
// run list, in fewer rows than the screen; approve and "always" judge
// whether the card was seen in those rows, not in the whole screen's. At
// 60×15 with runs listed, `1` and `2` on a run-later write card whose lines
// did not all fit answer nothing (#37 point 1: `2` was accepted there with
// its scope line never on screen).
func TestConsoleKeysJudgeTheCardAsDrawn(t *testing.T) {
	sent := make(chan queue.Answer, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(a queue.Answer) error { sent <- a; return nil })
	p.c.width, p.c.height = 60, 15
	now := time.Now()
	var runs consoleRunsMsg
	for _, id := range []string{"r-aa", "r-bb", "r-cc"} {
		runs = append(runs, queue.RunStatus{Report: queue.Report{Run: id, Project: "/src/p", State: queue.StateRunning, Started: now}, Updated: now})
	}
	p.update(runs)
	ws := "/state/work/r-aa/ws"
	in, _ := json.Marshal(map[string]string{"file_path": ws + "/.envrc", "content": "export A=1\n"})
	e := &queue.Entry{ID: "aa", Run: "r-aa", Project: "/src/p", Workspace: ws, Kind: policy.KindWrite, WaitingSince: now,
		Request: approvals.Request{ID: "b-aa", Kind: policy.KindWrite, Path: ws + "/.envrc", Cwd: ws, Input: in, Adapter: "claude"},
		Verdict: policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathWriteLater, Reason: "writes a file that runs code later"}}
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: e}))
	p.render()
	for _, k := range []string{"2", "1"} {
		p.key(keyMsg(k))
		apply(channelBroker{}, p.take())
		p.render()
	}
	select {
	case a := <-sent:
		t.Fatalf("a key answered a card drawn clipped below the run list: %+v", a)
	case <-time.After(200 * time.Millisecond): // nothing may come; a short wait for a send already under way
	}
}

// The same card at 120×40, drawn whole below the same run list, is
// approved by `1`: the console's keys still work where the card fits.
func TestConsoleKeysApproveACardDrawnWhole(t *testing.T) {
	sent := make(chan queue.Answer, 4)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := newConsole(ctx, newChrome(Options{}), func(a queue.Answer) error { sent <- a; return nil })
	p.c.width, p.c.height = 120, 40
	now := time.Now()
	p.update(consoleRunsMsg{{Report: queue.Report{Run: "r-aa", Project: "/src/p", State: queue.StateRunning, Started: now}, Updated: now}})
	ws := "/state/work/r-aa/ws"
	in, _ := json.Marshal(map[string]string{"file_path": ws + "/.envrc", "content": "export A=1\n"})
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: &queue.Entry{ID: "aa", Run: "r-aa", Project: "/src/p", Workspace: ws, Kind: policy.KindWrite, WaitingSince: now,
		Request: approvals.Request{ID: "b-aa", Kind: policy.KindWrite, Path: ws + "/.envrc", Cwd: ws, Input: in, Adapter: "claude"},
		Verdict: policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathWriteLater, Reason: "writes a file that runs code later"}}}))
	p.render()
	p.key(keyMsg("1"))
	apply(channelBroker{}, p.take())
	select {
	case a := <-sent:
		if a.Decision != queue.Approve {
			t.Fatalf("1 sent %+v", a)
		}
	case <-time.After(10 * time.Second): // a bound on a hang
		t.Fatal("1 on a card drawn whole sent no answer")
	}
}
