package queue

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// Person is the run's side of the queue: an approvals.Remote that posts a
// prompt to the user service and waits for the answer. No service (no
// socket) is no answer at once, so a run without one behaves as before.
type Person struct {
	Run, Project, Coder string
	// Workspace is where the coder works (see Post.Workspace).
	Workspace string
	// AtTerminal: a person sees the card at the run's terminal too.
	AtTerminal bool
	// Posted, if set, is told each request's id once the queue holds it
	// (the run journals it); what it returns, if not nil, is called when
	// the request stops waiting there (answered, withdrawn, or the service
	// gone), before Ask returns. A request the queue never held — no
	// service — is never Posted: the run says nothing of a queue then.
	Posted func(req approvals.Request, id string) (ended func())
}

// Ask implements approvals.Remote.
func (p *Person) Ask(ctx context.Context, pr *approvals.Prompt) (approvals.Decision, bool) {
	// The post's connection outlives ctx by one withdrawal: the queue
	// hears why the run stopped waiting (answered at the terminal) before
	// the connection closes.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	var mu sync.Mutex
	var id string
	finished := make(chan struct{})
	defer close(finished)
	go func() {
		select {
		case <-ctx.Done():
			mu.Lock()
			posted := id
			mu.Unlock()
			if posted != "" {
				p.withdraw(posted, context.Cause(ctx))
			}
			cancel()
		case <-finished:
		}
	}()
	var ended func() // Posted's: set, and called, on this goroutine
	defer func() {
		if ended != nil {
			ended()
		}
	}()
	var a Answer
	err := servicewire.Stream(sctx, OpPost, Post{Run: p.Run, Project: p.Project, Coder: p.Coder, Workspace: p.Workspace,
		Request: pr.Request, Verdict: pr.Verdict, AtTerminal: p.AtTerminal},
		func(raw json.RawMessage) error {
			var got Posted
			if err := json.Unmarshal(raw, &got); err != nil {
				return err
			}
			mu.Lock()
			id = got.ID
			mu.Unlock()
			if p.Posted != nil && ended == nil {
				ended = p.Posted(pr.Request, got.ID)
			}
			return nil
		}, &a)
	if err != nil || ctx.Err() != nil {
		return approvals.Decision{}, false
	}
	mu.Lock()
	defer mu.Unlock()
	if a.ID != id {
		return refuse("the queue's answer names another request"), true
	}
	return p.decision(pr, a), true
}

// withdraw tells the queue why the run stopped waiting (answered at the
// terminal, no answer in time), so the entry closes saying so. The post's
// own connection closing withdraws it too, without the reason.
func (p *Person) withdraw(id string, cause error) {
	reason := approvals.WithdrawnReason
	switch {
	case errors.Is(cause, approvals.ErrAnsweredAtTerminal):
		reason = approvals.ErrAnsweredAtTerminal.Error()
	case errors.Is(cause, context.DeadlineExceeded):
		reason = "no answer in time: denied"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = servicewire.Do(ctx, OpWithdraw, Withdraw{ID: id, Reason: reason}, nil)
}

func refuse(why string) approvals.Decision {
	return approvals.Decision{Outcome: approvals.OutcomeDeny, By: "error", Reason: why,
		Message: "Sentinel denied this: " + why}
}
