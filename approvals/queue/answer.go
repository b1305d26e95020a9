package queue

import (
	"reflect"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// decision turns the queue's answer into the run's decision. A remembered
// grant is checked here, by the run that owns the request: it must be a
// breadth this request's own card offers (the queue's client cannot widen
// it); a grant that is not is refused, and nothing is approved.
func (p *Person) decision(pr *approvals.Prompt, a Answer) approvals.Decision {
	where := "the " + a.Via
	if a.Via == "" {
		where = "the queue"
	}
	switch a.Decision {
	case Deny:
		d := approvals.Decision{Outcome: approvals.OutcomeDeny, By: "person", Reason: "denied in " + where}
		if a.Message != "" {
			d.Reason += ": " + a.Message
			d.Message = a.Message
		}
		return d
	case Approve:
	default:
		return refuse("the queue's answer was not understood")
	}
	if a.Remember == "" {
		return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Reason: "approved once in " + where}
	}
	g, ok := p.grant(pr, a)
	if !ok {
		return refuse("the remembered breadth sent from " + where + " is not one this request's card offers; nothing was approved")
	}
	reason := "approved and remembered in " + where
	if g2, note := approvals.LimitGrant(g, pr.Verdict); note != "" {
		g, reason = g2, reason+"; "+note
	}
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person", Reason: reason,
		Remember: true, Grant: &g}
}

// grant is the grant a remembers, if it is one this request's card offers:
// a suggested breadth (the narrowest when a names none), or the registry
// preset with exactly its hosts.
func (p *Person) grant(pr *approvals.Prompt, a Answer) (approvals.GrantSpec, bool) {
	switch a.Remember {
	case approvals.ScopeRun, approvals.ScopeProject, approvals.ScopeUser:
	default:
		return approvals.GrantSpec{}, false
	}
	if a.ExpiresSec < 0 {
		return approvals.GrantSpec{}, false
	}
	spec := approvals.GrantSpec{Scope: a.Remember, Expires: time.Duration(a.ExpiresSec) * time.Second}
	offered := approvals.SuggestGrants(pr.Request, pr.Verdict) // as the card offers them
	if a.Match == nil {
		if len(offered) == 0 || len(a.Also) > 0 {
			return spec, false
		}
		spec.Match = offered[0]
		return spec, true
	}
	for _, m := range offered {
		if reflect.DeepEqual(m, *a.Match) && len(a.Also) == 0 {
			spec.Match = m
			return spec, true
		}
	}
	if _, m, also, ok := approvals.RegistryGrant(pr.Request); ok && reflect.DeepEqual(m, *a.Match) && reflect.DeepEqual(also, a.Also) {
		spec.Match, spec.Also = m, also
		return spec, true
	}
	return spec, false
}
