package approvals

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// BySupervisor is the Decision.By of every decision the supervisor model
// takes (and of the chain's refusals on its behalf).
const BySupervisor = "supervisor"

// ByNobody is the Decision.By of a deny nobody made: nobody was there to
// ask, or only a person may approve and no person is answering (the
// supervisor model, when there is one, is never asked about that).
const ByNobody = "nobody"

// Model is the supervisor model in the two roles the chain gives it. The
// supervisor package's Supervisor is one; the chain never trusts it further
// than this: an answer that is neither allow nor deny, a panic or a grant it
// tries to slip in is a deny, and a request only a person may approve
// (policy.Verdict.NeverDelegable) is never sent to it.
type Model interface {
	// Decide is the judge role: the model decides alone. Any error,
	// timeout, refusal or unparseable answer must be a deny saying why.
	Decide(ctx context.Context, p *Prompt) Decision
	// Recommend is the advice role: one line for a person's card (the
	// person decides), saying so when the model has no advice.
	Recommend(ctx context.Context, p *Prompt) string
}

// Ask is the chain's last link, for what the policy asks about and no
// template covers: the person and/or the supervisor model. It is a
// Decider; the broker bounds it with its timeout and journals its answer.
//
//   - neither: a deny by "nobody" (no one to ask).
//   - a person alone: the person decides.
//   - a model alone: the model decides (the judge role), except what only a
//     person may approve, which is denied without asking it.
//   - both, Grace 0: the model's advice goes on the card
//     (Prompt.Recommendation, bounded by AdviceTimeout) and the person
//     decides. No advice is asked for what only a person may approve.
//   - both, Grace > 0 (walk-away): the person is asked first; if they have
//     not answered within Grace, the model decides, and the person can
//     still answer first while it thinks. What only a person may approve
//     waits for the person alone.
type Ask struct {
	Person Decider // the person's view (a PersonQueue); nil: nobody is there
	Model  Model   // the supervisor model; nil: none is configured
	// Grace is how long the person has before the model decides; 0 means
	// the person decides with the model's advice.
	Grace time.Duration
	// AdviceTimeout bounds the wait for advice before the card opens (0:
	// only the model's own per-turn timeout and the request's context).
	AdviceTimeout time.Duration
	// Away is the person away from the run's terminal: the user service's
	// cross-run queue (approvals/queue). nil, or a service that is not
	// running, changes nothing. See away.go for who is asked when.
	Away Remote
}

// Decide implements Decider.
func (a Ask) Decide(ctx context.Context, p *Prompt) Decision {
	if present(a.Away) {
		return a.withAway(ctx, p)
	}
	person, model := present(a.Person), present(a.Model)
	switch {
	case !person && !model:
		return unanswered(ByNobody, noOneToAsk, p.Verdict)
	case !person:
		return a.modelAlone(ctx, p)
	case !model:
		return decideSafely(ctx, a.Person, p)
	case a.Grace > 0:
		return a.personThenModel(ctx, p)
	default:
		return a.personWithAdvice(ctx, p)
	}
}

const noOneToAsk = "no one to ask: no person or supervisor is answering approvals in this run"

// modelAlone is the judge role with nobody else there.
func (a Ask) modelAlone(ctx context.Context, p *Prompt) Decision {
	if p.Verdict.NeverDelegable {
		return personOnly(p)
	}
	return a.judge(ctx, p)
}

// judge asks the model to decide and holds its answer to the contract.
func (a Ask) judge(ctx context.Context, p *Prompt) (d Decision) {
	defer func() {
		if r := recover(); r != nil {
			d = modelDeny(fmt.Sprintf("the supervisor model failed: %v", r))
		}
	}()
	d = a.Model.Decide(ctx, p)
	switch d.Outcome {
	case OutcomeAllow, OutcomeDeny:
	default:
		return modelDeny(fmt.Sprintf("the supervisor model gave no valid answer (%q)", d.Outcome))
	}
	if d.Allowed() && p.Verdict.NeverDelegable {
		return personOnly(p)
	}
	// A model decides this request only: it never remembers a grant, and
	// its decision is journaled as the supervisor's, whatever it claims.
	d.By, d.Grant, d.Remember, d.Hosts = BySupervisor, nil, false, nil
	if !d.Allowed() && d.Message == "" {
		d.Message = "Sentinel's supervisor denied this: " + d.Reason
	}
	return d
}

// personWithAdvice puts the model's advice on the card, then waits for the
// person.
func (a Ask) personWithAdvice(ctx context.Context, p *Prompt) Decision {
	if !p.Verdict.NeverDelegable {
		p.Recommendation = a.advice(ctx, p)
	}
	return decideSafely(ctx, a.Person, p)
}

// advice runs the advice role, bounded by AdviceTimeout and ctx even when
// the model ignores its context.
func (a Ask) advice(ctx context.Context, p *Prompt) string {
	if a.AdviceTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.AdviceTimeout)
		defer cancel()
	}
	got := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				got <- fmt.Sprintf("supervisor: no advice (the model failed: %v)", r)
			}
		}()
		got <- a.Model.Recommend(ctx, p)
	}()
	select {
	case line := <-got:
		if strings.TrimSpace(line) == "" {
			return "supervisor: no advice (the model gave none)"
		}
		return line
	case <-ctx.Done():
		return "supervisor: no advice (none in time)"
	}
}

// personThenModel is walk-away mode with a person who may come back.
func (a Ask) personThenModel(ctx context.Context, p *Prompt) Decision {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	person := make(chan Decision, 1)
	go func() { person <- decideSafely(pctx, a.Person, p) }()
	timer := time.NewTimer(a.Grace)
	defer timer.Stop()
	select {
	case d := <-person:
		return d
	case <-timer.C:
	case <-ctx.Done():
		return unanswered("timeout", "no answer in time", p.Verdict)
	}
	if p.Verdict.NeverDelegable {
		select {
		case d := <-person:
			return d
		case <-ctx.Done():
			return unanswered("timeout", "no answer in time", p.Verdict)
		}
	}
	model := make(chan Decision, 1)
	go func() { model <- a.judge(ctx, p) }()
	select {
	case d := <-person:
		return d
	case d := <-model:
		return d
	}
}

// decideSafely asks d, turning a panic into a deny.
func decideSafely(ctx context.Context, d Decider, p *Prompt) (dec Decision) {
	defer func() {
		if r := recover(); r != nil {
			dec = denyBy("error", fmt.Sprintf("the decider failed: %v", r))
		}
	}()
	return d.Decide(ctx, p)
}

// personOnly refuses to let a model decide what only a person may approve.
func personOnly(p *Prompt) Decision {
	v := p.Verdict
	why := fmt.Sprintf("only a person may approve this (%s), and no person is answering", clipLine(v.Reason, 160))
	v.Reason = "" // said already; the rule and what to do instead follow
	return unanswered(ByNobody, why, v)
}

func modelDeny(reason string) Decision {
	return Decision{Outcome: OutcomeDeny, By: BySupervisor, Reason: reason,
		Message: "Sentinel's supervisor denied this: " + reason}
}

// present reports whether v is a usable decider or model: neither a nil
// interface nor a nil pointer in one (a run without a person passes a nil
// *PersonQueue as easily as nil).
func present(v any) bool {
	if v == nil {
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return !rv.IsNil()
	}
	return true
}

// clipLine is s on one line, at most n runes.
func clipLine(s string, n int) string { return textsafe.ClipLine(s, n) }
