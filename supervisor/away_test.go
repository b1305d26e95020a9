package supervisor

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// absent is a person who never answers until the context ends.
type absent struct{ asked chan struct{} }

func (a absent) Decide(ctx context.Context, _ *approvals.Prompt) approvals.Decision {
	close(a.asked)
	<-ctx.Done()
	return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "timeout", Reason: "no answer"}
}

// The supervisor as the model of the approval chain in walk-away mode.
func TestPersonThenSupervisor(t *testing.T) {
	t.Run("the person answers first", func(t *testing.T) {
		b, sent := startOpenAI(t, answer{verdict: &Verdict{"deny", "x", "low"}})
		who := &person{answer: approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person"}}
		d := approvals.Ask{Person: who, Model: NewSupervisor(Options{Backend: b}), Grace: time.Hour}.
			Decide(context.Background(), shellPrompt("make"))
		if d.By != "person" || len(sent()) != 0 {
			t.Fatalf("decision %+v, model turns %d", d, len(sent()))
		}
	})
	t.Run("the person is away: the supervisor decides", func(t *testing.T) {
		b, _ := startOpenAI(t, answer{verdict: &Verdict{"allow", "building is the task", "low"}})
		a := absent{asked: make(chan struct{})}
		d := approvals.Ask{Person: a, Model: NewSupervisor(Options{Backend: b}), Grace: time.Millisecond}.
			Decide(context.Background(), shellPrompt("make"))
		<-a.asked // the card was shown first
		if !d.Allowed() || d.By != ByWho {
			t.Fatalf("decision %+v, want the supervisor's allow", d)
		}
	})
	t.Run("never delegable waits for the person and then times out", func(t *testing.T) {
		b, sent := startOpenAI(t, answer{verdict: &Verdict{"allow", "x", "low"}})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		d := approvals.Ask{Person: absent{asked: make(chan struct{})}, Model: NewSupervisor(Options{Backend: b}), Grace: time.Millisecond}.
			Decide(ctx, netPrompt("evil.example"))
		if d.Allowed() || len(sent()) != 0 {
			t.Fatalf("decision %+v, model turns %d: a never-delegable request reached the model", d, len(sent()))
		}
	})
}
