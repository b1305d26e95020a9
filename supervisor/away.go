package supervisor

import (
	"context"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// PersonThenSupervisor is walk-away mode with a person who may come back:
// each request goes to the person first; if they have not answered within
// Grace, the supervisor decides (the person can still answer first while it
// thinks). Requests only a person may approve wait for the person alone,
// bounded by the broker's timeout as always.
type PersonThenSupervisor struct {
	Person     approvals.Decider
	Supervisor *Supervisor
	Grace      time.Duration // how long the person has before the model decides; 0 means 2 minutes
}

// Decide implements approvals.Decider.
func (d PersonThenSupervisor) Decide(ctx context.Context, p *approvals.Prompt) approvals.Decision {
	if d.Person == nil {
		if d.Supervisor == nil {
			return deny("no person or supervisor is answering")
		}
		return d.Supervisor.Decide(ctx, p)
	}
	grace := d.Grace
	if grace <= 0 {
		grace = 2 * time.Minute
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	person := make(chan approvals.Decision, 1)
	go func() { person <- d.Person.Decide(pctx, p) }()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case dec := <-person:
		return dec
	case <-timer.C:
	case <-ctx.Done():
		return deny("no answer in time")
	}
	if p.Verdict.NeverDelegable || d.Supervisor == nil {
		select {
		case dec := <-person:
			return dec
		case <-ctx.Done():
			return deny("no answer in time")
		}
	}
	model := make(chan approvals.Decision, 1)
	go func() { model <- d.Supervisor.Decide(ctx, p) }()
	select {
	case dec := <-person:
		return dec
	case dec := <-model:
		return dec
	}
}
