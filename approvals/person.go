package approvals

import "context"

// PersonQueue is the Decider for a person: each request it is asked about
// becomes a Prompt on Prompts(), which a view (the TUI's approval card or
// the plain-mode prompt) shows and answers; a skip is an answer too (a deny
// telling the coder to go on without it). An unanswered request waits until
// it is answered, the coder gives up or the broker's timeout denies it (then
// Prompt.Done is closed).
type PersonQueue struct {
	prompts chan *Prompt
}

// NewPersonQueue returns a queue whose prompts must be consumed by a view.
func NewPersonQueue() *PersonQueue {
	return &PersonQueue{prompts: make(chan *Prompt, 256)}
}

// Prompts is where prompts for the person arrive.
func (q *PersonQueue) Prompts() <-chan *Prompt { return q.prompts }

// Decide hands p to the view and waits for the person's answer or ctx.
func (q *PersonQueue) Decide(ctx context.Context, p *Prompt) Decision {
	select {
	case q.prompts <- p:
	case <-ctx.Done():
		return denyBy("timeout", "no one took the prompt in time")
	}
	select {
	case a := <-p.Replies():
		d := answerDecision(a)
		if a.WithHosts && d.Allowed() && p.Fetch != nil {
			d.Hosts = append([]string(nil), p.Fetch.Hosts...)
		}
		return d
	case <-ctx.Done():
		return denyBy("timeout", "no answer in time")
	}
}

// answerDecision turns a card's answer into a decision.
func answerDecision(a Answer) Decision {
	switch a.Kind {
	case ApproveOnce:
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "approved once"}
	case ApproveRemember:
		d := Decision{Outcome: OutcomeAllow, By: "person", Reason: "approved and remembered", Remember: true}
		if a.Grant != nil {
			g := *a.Grant
			d.Grant = &g
		}
		return d
	case Deny:
		d := Decision{Outcome: OutcomeDeny, By: "person", Reason: "denied by the person"}
		if a.Message != "" {
			d.Reason = "denied by the person: " + a.Message
			d.Message = a.Message
		}
		return d
	case Skip:
		return Decision{Outcome: OutcomeDeny, By: "person", Reason: SkipReason, Message: SkipMessage}
	}
	return denyBy("error", "the person's answer was not understood")
}

// DeciderFunc adapts a function to the Decider interface.
type DeciderFunc func(ctx context.Context, p *Prompt) Decision

// Decide calls f.
func (f DeciderFunc) Decide(ctx context.Context, p *Prompt) Decision { return f(ctx, p) }
