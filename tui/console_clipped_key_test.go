package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// laterCardConsole is a console w×h with three runs listed and a run-later
// write card waiting; sent gets its answers.
func laterCardConsole(t *testing.T, w, h int) (*consolePage, chan queue.Answer) {
	t.Helper()
	sent := make(chan queue.Answer, 4)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	p := newConsole(ctx, newChrome(Options{}), func(a queue.Answer) error { sent <- a; return nil })
	p.c.width, p.c.height = w, h
	now := time.Now()
	var runs consoleRunsMsg
	for _, id := range []string{"r-aa", "r-bb", "r-cc"} {
		runs = append(runs, queue.RunStatus{Report: queue.Report{Run: id, Project: "/src/p", State: queue.StateRunning, Started: now}, Updated: now})
	}
	p.update(runs)
	ws := "/state/work/r-aa/ws"
	in, _ := json.Marshal(map[string]string{"file_path": ws + "/.envrc", "content": "export A=1\n"})
	p.update(consoleQueueMsg(queue.Event{Type: queue.EventOpen, Entry: &queue.Entry{ID: "aa", Run: "r-aa", Project: "/src/p", Workspace: ws, Kind: policy.KindWrite, WaitingSince: now,
		Request: approvals.Request{ID: "b-aa", Kind: policy.KindWrite, Path: ws + "/.envrc", Cwd: ws, Input: in, Adapter: "claude"},
		Verdict: policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathWriteLater, Reason: "writes a file that runs code later"}}}))
	return p, sent
}

// TestConsoleKeysJudgeTheCardAsDrawn: the console draws a card below its
// header, in fewer rows than the screen; approve and "always" judge whether
// the card was seen in those rows, not in the whole screen's. On a screen
// too short for the card, `2` and `1` answer nothing (#37 point 1: at 60×15
// `2` was accepted on a run-later card whose scope line was never on
// screen).
func TestConsoleKeysJudgeTheCardAsDrawn(t *testing.T) {
	p, sent := laterCardConsole(t, 60, 11)
	if s := ansi.Strip(p.render()); strings.Contains(strings.Join(strings.Fields(s), " "), "each run anew)") {
		t.Fatalf("the card fits at 60×11; the test needs one that does not:\n%s", s)
	}
	for _, k := range []string{"2", "1"} {
		p.key(keyMsg(k))
		apply(channelBroker{}, p.take())
		p.render()
	}
	select {
	case a := <-sent:
		t.Fatalf("a key answered a card drawn clipped: %+v", a)
	case <-time.After(200 * time.Millisecond): // nothing may come; a short wait for a send already under way
	}
}

// At 60×15 a waiting card takes the run list's rows (the card names its
// run and project), so it is drawn whole — its "always" scope on screen —
// and `1` approves it; at 120×40 the list stays.
func TestConsoleCardOnAShortScreenIsDrawnWholeAndApproved(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {120, 40}} {
		p, sent := laterCardConsole(t, size[0], size[1])
		s := ansi.Strip(p.render())
		if !strings.Contains(s, "2 always") || !strings.Contains(s, "run r-aa in src/p") {
			t.Fatalf("%dx%d: the card is not drawn whole:\n%s", size[0], size[1], s)
		}
		if listed := strings.Contains(s, "r-bb"); listed != (size[1] >= 24) {
			t.Fatalf("%dx%d: run list shown = %v:\n%s", size[0], size[1], listed, s)
		}
		// rows of the card's own that did not fit (cwd, policy) are
		// scrolled with ] and counted: approve waits for them
		for i := 0; i < 20; i++ {
			m := rowsCounter.FindStringSubmatch(s)
			if m == nil || m[2] == m[3] {
				break
			}
			p.key(keyMsg("]"))
			s = ansi.Strip(p.render())
		}
		p.key(keyMsg("1"))
		apply(channelBroker{}, p.take())
		select {
		case a := <-sent:
			if a.Decision != queue.Approve {
				t.Fatalf("%dx%d: 1 sent %+v", size[0], size[1], a)
			}
		case <-time.After(10 * time.Second): // a bound on a hang
			t.Fatalf("%dx%d: 1 on a card drawn whole sent no answer:\n%s", size[0], size[1], s)
		}
	}
}
