package approvals

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// Judgment is what policy and templates say about a request before any
// decider is asked. `sentinel templates test` and the broker share it, so
// the two always agree.
type Judgment struct {
	Verdict   policy.Verdict
	Decided   bool     // policy or templates answered
	Decision  Decision // valid when Decided
	Templates []string // ids of the covering templates, if they decided
}

// Judge runs the first two links of the chain: policy deny → deny, policy
// allow → allow, otherwise covering templates → allow.
func Judge(eng *policy.Engine, set *TemplateSet, req Request, ctx policy.Context) (j Judgment) {
	defer func() {
		if r := recover(); r != nil {
			j = Judgment{Decided: true, Decision: denyBy("error", fmt.Sprintf("internal error judging the request: %v", r))}
		}
	}()
	if eng == nil {
		return Judgment{Decided: true, Decision: denyBy("error", "no policy engine is configured")}
	}
	v := eng.Check(queryOf(req, ctx))
	j.Verdict = v
	switch v.Decision {
	case policy.Deny:
		j.Decided = true
		j.Decision = denyBy("policy:"+v.Rule, v.Reason)
		return j
	case policy.Allow:
		j.Decided = true
		j.Decision = Decision{Outcome: OutcomeAllow, By: "policy:" + v.Rule, Reason: v.Reason}
		return j
	case policy.Ask:
	default:
		j.Decided = true
		j.Decision = denyBy("error", fmt.Sprintf("policy gave an unknown answer %v", v.Decision))
		return j
	}
	if ids, ok := set.Covering(req, v, ctx); ok {
		j.Decided = true
		j.Templates = ids
		names := namesOf(set, ids)
		j.Decision = Decision{Outcome: OutcomeAllow, By: "template:" + strings.Join(ids, "+"),
			Reason: reusedText(ids, names), TemplateNames: names}
	}
	return j
}

func queryOf(req Request, ctx policy.Context) policy.Query {
	c := ctx
	if req.Cwd != "" {
		c.Cwd = req.Cwd
	}
	if c.Cwd == "" {
		c.Cwd = c.Workspace
	}
	return policy.Query{Kind: req.Kind, Command: req.Command, Path: req.Path, URL: req.URL,
		Host: req.Host, Port: req.Port, Tool: req.Tool, Context: c}
}

func denyBy(by, reason string) Decision { return wire.DenyBy(by, reason) }

// Decide answers one request through the whole chain: policy, templates,
// then the decider (bounded by the timeout). It never fails open: a
// malformed request, a panic, no decider or no answer in time is a deny.
// Every request and its decision are journaled, except in a flood: with
// MaxPending already in flight a request is denied at once, and a burst of
// those is journaled as its first request and a count.
func (b *Broker) Decide(ctx context.Context, req Request) Decision {
	if !b.admit() {
		return b.overflow(req)
	}
	defer b.release()
	return b.decide(ctx, req)
}

func (b *Broker) decide(ctx context.Context, req Request) (d Decision) {
	start := time.Now()
	req = fromArgv(req)
	req.ID = fmt.Sprintf("%s-%d", b.idPrefix, b.seq.Add(1))
	var verdict *policy.Verdict
	journaled := false
	defer func() {
		if r := recover(); r != nil {
			d = denyBy("error", fmt.Sprintf("internal error: %v", r))
		}
		if !journaled {
			b.journalRequest(req, verdict)
		}
		d.RequestID = req.ID
		d.LatencyMS = time.Since(start).Milliseconds()
		b.journalDecision(req, d)
		b.grantHostToProxy(req, d)
		if d.Allowed() && b.cfg.BeforeAllow != nil {
			func() {
				defer func() { _ = recover() }()
				b.cfg.BeforeAllow(req)
			}()
		}
	}()
	if err := req.Validate(); err != nil {
		return denyBy("error", "malformed request: "+err.Error())
	}
	if b.closing() {
		return denyBy("error", "the broker is shutting down")
	}
	if err := b.journalFailed(); err != nil {
		return denyBy("error", "the run's journal cannot be written, so nothing is allowed: "+err.Error())
	}
	j := Judge(b.cfg.Policy, b.cfg.Templates, req, b.cfg.Context)
	verdict = &j.Verdict
	journaled = true
	if err := b.journalRequest(req, verdict); err != nil {
		return denyBy("error", "the request could not be journaled, so it is not allowed: "+err.Error())
	}
	if d, ok := b.outOfReach(req, j.Verdict); ok {
		return d
	}
	if d, ok := b.shellOutOfReach(req, j.Verdict); ok {
		return d
	}
	if d, ok := b.gitConfigOutOfReach(req, j.Verdict); ok {
		return d
	}
	if d, ok := b.needsOutOfReach(req, j.Verdict); ok {
		return d
	}
	if j.Decided {
		if len(j.Templates) > 0 {
			b.cfg.Templates.MarkUsed(j.Templates)
		}
		return j.Decision
	}
	b.remember(req)
	if b.cfg.Decider == nil {
		return unanswered("nobody", noOneToAsk, j.Verdict)
	}
	return b.ask(ctx, req, j.Verdict)
}

// ask hands the request to the decider and waits up to the timeout.
func (b *Broker) ask(ctx context.Context, req Request, v policy.Verdict) Decision {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	stop := context.AfterFunc(b.ctx, cancel) // the broker closing ends every wait
	defer stop()
	p := NewPrompt(req, v)
	p.Fetch = b.fetchOf(req)
	defer p.finish()
	got := make(chan Decision, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				got <- denyBy("error", fmt.Sprintf("the decider failed: %v", r))
			}
		}()
		got <- b.cfg.Decider.Decide(ctx, p)
	}()
	var d Decision
	answered := false
	select {
	case d = <-got:
		answered = true
	case <-ctx.Done():
	}
	if err := ctx.Err(); err != nil && (!answered || d.By == "timeout") {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return unanswered("timeout", fmt.Sprintf("no answer within %s", b.cfg.Timeout), v)
		case b.closing():
			return denyBy("error", "the broker is shutting down")
		default:
			return denyBy("error", WithdrawnReason)
		}
	}
	switch d.Outcome {
	case OutcomeAllow, OutcomeDeny:
	default:
		return denyBy("error", fmt.Sprintf("the decider gave no valid answer (%q)", d.Outcome))
	}
	if d.By == "" {
		d.By = "error"
	}
	if d.Outcome == OutcomeDeny && d.Message == "" {
		d.Message = "Sentinel denied this: " + d.Reason
	}
	if d.Allowed() && d.Grant != nil {
		g, note := LimitGrant(*d.Grant, v)
		if note != "" {
			d.Reason += "; " + note
		} else {
			d.Reason += " " + RememberedFor(g) // the reports say what was remembered, and for how long
		}
		b.storeGrant(req, g)
	}
	if d.Hosts = b.allowFetchHosts(req, p.Fetch, d); len(d.Hosts) > 0 {
		d.Reason += ", with " + strings.Join(d.Hosts, ", ") + " for this run"
	}
	return d
}

func (b *Broker) storeGrant(req Request, g GrantSpec) {
	if argv := append(append([]string{}, g.Match.Exact...), g.Match.Prefix...); len(argv) > 0 {
		cwd := req.Cwd
		if cwd == "" {
			cwd = b.cfg.Context.Cwd
		}
		g.Match.ProgramSHA256 = programDigest(argv, cwd, b.cfg.Context.Workspace)
	}
	if b.cfg.Templates == nil {
		b.journal(journal.System, KindTemplateError, "could not remember the grant: no template set", nil)
		return
	}
	if len(g.Also) > 0 && !isRegistryGrant(req, g) {
		// Also carries a registry preset's hosts, for a request naming one
		// of them, and nothing else rides along.
		b.journal(journal.System, KindTemplateError, "could not remember the grant: its extra hosts are not the registry preset of "+req.Summary(), nil)
		return
	}
	for _, m := range append([]Match{g.Match}, g.Also...) {
		one := g
		one.Match, one.Also = m, nil
		t, err := b.cfg.Templates.Add(one, Origin{Run: b.cfg.RunID, Request: req.Summary()})
		if err != nil {
			b.journal(journal.System, KindTemplateError, "could not remember the grant: "+err.Error(), nil)
			return
		}
		b.journal(journal.Approval, KindTemplateAdded, fmt.Sprintf("remembered “%s” as %s (%s, %s scope)", t.Name(), t.ID, t.Match, t.Scope), t)
	}
}

// VerdictSummary is what the journal keeps of the policy's answer.
type VerdictSummary struct {
	Decision       policy.Decision `json:"decision"`
	Rule           string          `json:"rule,omitempty"`
	Reason         string          `json:"reason,omitempty"`
	NeverDelegable bool            `json:"never_delegable,omitempty"`
	Parts          []PartSummary   `json:"parts,omitempty"`
}

// PartSummary is one part of a compound command in a VerdictSummary.
type PartSummary struct {
	Text     string          `json:"text"`
	Decision policy.Decision `json:"decision"`
	Rule     string          `json:"rule,omitempty"`
}

// RequestEvent is the data of a KindRequest event: the request's own fields
// plus the policy's verdict.
type RequestEvent struct {
	Request
	InputBytes int             `json:"input_bytes,omitempty"` // set when Input was too large to journal
	Verdict    *VerdictSummary `json:"verdict,omitempty"`
}

const maxJournaledInput = 64 << 10

func (b *Broker) journalRequest(req Request, v *policy.Verdict) error {
	ev := RequestEvent{Request: req}
	if len(req.Input) > maxJournaledInput {
		// a Write's whole content does not belong in every view's stream
		ev.Input = nil
		ev.InputBytes = len(req.Input)
	}
	if v != nil {
		s := &VerdictSummary{Decision: v.Decision, Rule: v.Rule, Reason: v.Reason, NeverDelegable: v.NeverDelegable}
		for _, p := range v.Parts {
			s.Parts = append(s.Parts, PartSummary{Text: p.Text, Decision: p.Decision, Rule: p.Rule})
		}
		ev.Verdict = s
	}
	return b.journal(journal.Approval, KindRequest, fmt.Sprintf("%s: %s", kindOr(req.Kind), oneLine(req.Summary())), ev)
}

func (b *Broker) journalDecision(req Request, d Decision) {
	word := "allowed"
	switch {
	case Skipped(d):
		word = "skipped"
	case !d.Allowed():
		word = "denied"
	}
	text := fmt.Sprintf("%s: %s (%s)", word, oneLine(req.Summary()), d.By)
	if strings.HasPrefix(d.By, "template:") && d.Reason != "" {
		// The template's name and id are in the reason: the id twice, the
		// first time bare, read as a code where a name was wanted.
		text = fmt.Sprintf("%s: %s — %s", word, oneLine(req.Summary()), oneLine(d.Reason))
	}
	if !d.Allowed() && d.Reason != "" && !Skipped(d) {
		text += " — " + oneLine(d.Reason)
	}
	b.journal(journal.Approval, KindDecision, text, d)
}

// journal appends an event. A failed append fails the journal for good
// (journal.Journal.Failed): the run watching it stops, and Decide denies
// from then on; callers that gate something on the event check the error.
func (b *Broker) journal(lane journal.Lane, kind journal.Kind, text string, data any) error {
	if b.cfg.Journal == nil {
		return nil
	}
	_, err := b.cfg.Journal.Append(lane, kind, text, data)
	return err
}

// journalFailed is why the journal can no longer be written, or nil.
func (b *Broker) journalFailed() error {
	if b.cfg.Journal == nil {
		return nil
	}
	return b.cfg.Journal.Err()
}

func kindOr(k policy.Kind) string {
	if k == "" {
		return "?"
	}
	return string(k)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
