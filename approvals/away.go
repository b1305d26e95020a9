package approvals

import (
	"context"
	"errors"
	"fmt"
)

// Remote is a decider somewhere else that may give no answer at all: the
// user service's cross-run queue (approvals/queue), which may not be
// running, or may go away while a request waits. ok false means it gave no
// answer, and the chain goes on as if it were not there.
type Remote interface {
	Ask(ctx context.Context, p *Prompt) (d Decision, ok bool)
}

// ErrAnsweredAtTerminal is the cause the chain ends the queue's wait with
// when the person at the run's own terminal answered first: the queue's
// entry closes saying so.
var ErrAnsweredAtTerminal = errors.New("answered at the terminal")

// WithdrawnReason is the decision on a request whose asker stopped waiting
// before anyone answered — the process that asked ended (a hook client
// killed, a tool that gave up on the proxy, a coder that exited): its card
// is taken off every view and cannot be answered.
const WithdrawnReason = "withdrawn: the process that asked ended before anyone answered"

// withAway is the chain with the queue in it (Ask.Away):
//
//   - a person at the run's terminal: the card shows there and in the
//     queue; the first answer wins and the other closes, saying where it
//     was answered (then the chain goes on as without the queue: advice,
//     walk-away grace).
//   - no person, no model: the queue decides.
//   - no person, a model: the model judges the gray zone as without the
//     queue; what only a person may approve goes to the queue.
//
// A queue that gives no answer (no service, or it went away) leaves the
// chain exactly as it is without one: "no one to ask", or the model.
func (a Ask) withAway(ctx context.Context, p *Prompt) Decision {
	rest := a
	rest.Away = nil
	switch {
	case present(a.Person):
		rest.Person = either{local: a.Person, away: a.Away}
		return rest.Decide(ctx, p)
	case present(a.Model) && !p.Verdict.NeverDelegable:
		return rest.Decide(ctx, p)
	}
	if d, ok := askAway(ctx, a.Away, p); ok {
		return d
	}
	return rest.Decide(ctx, p)
}

// either asks the person at the terminal and the queue at once; the first
// answer wins and the other is withdrawn (its context ends, with the cause
// ErrAnsweredAtTerminal when the terminal won).
type either struct {
	local Decider
	away  Remote
}

type awayAnswer struct {
	d  Decision
	ok bool
}

func (e either) Decide(ctx context.Context, p *Prompt) Decision {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	local := make(chan Decision, 1)
	away := make(chan awayAnswer, 1)
	go func() { local <- decideSafely(ctx, e.local, p) }()
	go func() {
		d, ok := askAway(ctx, e.away, p)
		away <- awayAnswer{d, ok}
	}()
	select {
	case d := <-local:
		cancel(ErrAnsweredAtTerminal)
		return d
	case r := <-away:
		if r.ok {
			cancel(errors.New("answered in the queue"))
			return r.d
		}
		return <-local // no queue after all: the terminal alone
	}
}

// askAway asks r, turning a panic into no answer.
func askAway(ctx context.Context, r Remote, p *Prompt) (d Decision, ok bool) {
	defer func() {
		if x := recover(); x != nil {
			d, ok = denyBy("error", fmt.Sprintf("the approval queue failed: %v", x)), false
		}
	}()
	return r.Ask(ctx, p)
}
