package approvals

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
	"github.com/sentinelhq/sentinel/policy"
)

// fakeAway is a queue: down gives no answer at once; otherwise it answers
// with d when answer is closed, and records why its wait ended.
type fakeAway struct {
	down   bool
	d      Decision
	answer chan struct{}

	mu    sync.Mutex
	asked int
	cause error
}

func (f *fakeAway) Ask(ctx context.Context, p *Prompt) (Decision, bool) {
	f.mu.Lock()
	f.asked++
	f.mu.Unlock()
	if f.down {
		return Decision{}, false
	}
	select {
	case <-f.answer:
		return f.d, true
	case <-ctx.Done():
		f.mu.Lock()
		f.cause = context.Cause(ctx)
		f.mu.Unlock()
		return Decision{}, false
	}
}

func (f *fakeAway) seen() (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asked, f.cause
}

func grayPrompt(neverDelegable bool) *Prompt {
	return NewPrompt(Request{Kind: policy.KindShell, Command: "curl https://example.com"},
		policy.Verdict{Decision: policy.Ask, Rule: "net.tool", Reason: "curl talks to the network", NeverDelegable: neverDelegable})
}

func TestAwayDownIsAsWithout(t *testing.T) {
	down := &fakeAway{down: true}
	d := Ask{Away: down}.Decide(context.Background(), grayPrompt(false))
	want := Ask{}.Decide(context.Background(), grayPrompt(false))
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("no service: %+v, want %+v (as without the queue)", d, want)
	}
	m := &chainModel{kind: "allow"}
	d = Ask{Away: down, Model: m}.Decide(context.Background(), grayPrompt(true))
	if d.Allowed() || !strings.Contains(d.Reason, "only a person") {
		t.Fatalf("no service, a model, person-only: %+v", d)
	}
	// a person at the terminal still decides
	d = Ask{Away: down, Person: &chainPerson{}}.Decide(context.Background(), grayPrompt(false))
	if !d.Allowed() || d.By != "person" {
		t.Fatalf("no service, a person: %+v", d)
	}
}

func TestAwayAloneDecides(t *testing.T) {
	q := &fakeAway{answer: make(chan struct{}), d: Decision{Outcome: OutcomeDeny, By: "person", Reason: "denied in the queue: no", Message: "no"}}
	close(q.answer)
	d := Ask{Away: q}.Decide(context.Background(), grayPrompt(false))
	if !reflect.DeepEqual(d, q.d) {
		t.Fatalf("the queue's answer: %+v", d)
	}
}

// With a model, the gray zone goes to the model as without the queue;
// what only a person may approve goes to the queue.
func TestAwayWithModel(t *testing.T) {
	q := &fakeAway{answer: make(chan struct{}), d: Decision{Outcome: OutcomeAllow, By: "person", Reason: "approved once in the queue"}}
	close(q.answer)
	m := &chainModel{kind: "deny"}
	d := Ask{Away: q, Model: m}.Decide(context.Background(), grayPrompt(false))
	if d.By != BySupervisor {
		t.Fatalf("gray zone with a model: %+v", d)
	}
	if n, _ := q.seen(); n != 0 {
		t.Fatal("the gray zone was posted to the queue although a model judges it")
	}
	d = Ask{Away: q, Model: m}.Decide(context.Background(), grayPrompt(true))
	if !reflect.DeepEqual(d, q.d) {
		t.Fatalf("person-only with a model: %+v, want the queue's answer", d)
	}
}

// With a person at the terminal, the card shows there and in the queue;
// the first answer wins and the other closes saying where it was answered.
func TestAwayBesideTerminalFirstAnswerWins(t *testing.T) {
	q := &fakeAway{answer: make(chan struct{})}
	d := Ask{Away: q, Person: &chainPerson{}}.Decide(context.Background(), grayPrompt(false))
	if !d.Allowed() || d.Reason != "approved once" {
		t.Fatalf("the terminal answered first: %+v", d)
	}
	var cause error
	poll.Must(t, time.Minute, "the queue's wait to end", func() bool { // its goroutine is ending
		var n int
		n, cause = q.seen()
		return n == 1 && cause != nil
	})
	if !errors.Is(cause, ErrAnsweredAtTerminal) {
		t.Fatalf("the queue's wait ended with %v, want %v", cause, ErrAnsweredAtTerminal)
	}

	q = &fakeAway{answer: make(chan struct{}), d: Decision{Outcome: OutcomeDeny, By: "person", Reason: "denied in the console"}}
	close(q.answer)
	away := &chainPerson{away: true}
	d = Ask{Away: q, Person: away}.Decide(context.Background(), grayPrompt(false))
	if !reflect.DeepEqual(d, q.d) {
		t.Fatalf("the queue answered first: %+v", d)
	}
}
