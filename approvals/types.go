package approvals

// This file is the contract the runner, the TUI and the hook commands code
// against. Keep these names and meanings stable; add fields freely.

import (
	"context"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/policy"
)

// The words shared with the hook side of the socket live in approvals/wire,
// which a hook imports without the broker; these are the same types.

// EnvSocket names the environment variable through which the runner tells
// the coder's process tree (and so every hook command) where the broker is.
const EnvSocket = wire.EnvSocket

// EnvRun names the environment variable holding the run id.
const EnvRun = wire.EnvRun

// Request is one thing a coder wants to do (wire.Request).
type Request = wire.Request

// Outcome is allow or deny: every request gets exactly one.
type Outcome = wire.Outcome

// The two outcomes.
const (
	OutcomeAllow = wire.OutcomeAllow
	OutcomeDeny  = wire.OutcomeDeny
)

// Decision answers a Request (wire.Decision).
type Decision = wire.Decision

// Decider answers the requests that policy asks about and no template covers.
type Decider interface {
	Decide(ctx context.Context, p *Prompt) Decision
}

// Prompt is a request waiting for a decider (a person or a model).
type Prompt struct {
	Request Request
	Verdict policy.Verdict
	// Recommendation is a supervisor model's advice shown on the card, if any.
	Recommendation string
	// Fetch, for a package install, is the registry hosts it will need,
	// which the card offers to allow with it (fetchgrant.go).
	Fetch    *policy.Fetch
	Opened   time.Time
	reply    chan Answer
	done     chan struct{}
	doneOnce sync.Once
}

// NewPrompt makes a prompt that can be answered once.
func NewPrompt(req Request, v policy.Verdict) *Prompt {
	return &Prompt{Request: req, Verdict: v, Opened: time.Now(), reply: make(chan Answer, 1), done: make(chan struct{})}
}

// Done is closed once the request is decided — by this prompt's answer, a
// timeout, or the coder giving up — so a view can drop a skipped card.
func (p *Prompt) Done() <-chan struct{} { return p.done }

// finish marks the prompt decided.
func (p *Prompt) finish() { p.doneOnce.Do(func() { close(p.done) }) }

// Answer delivers the person's answer; only the first answer counts.
func (p *Prompt) Answer(a Answer) {
	select {
	case p.reply <- a:
	default:
	}
}

// Replies is where the answer arrives.
func (p *Prompt) Replies() <-chan Answer { return p.reply }

// AnswerKind is what the person chose on the card.
type AnswerKind int

// The card's choices. Skip answers at once with a deny that tells the coder
// the person skipped it (SkipMessage), journaled as skipped.
const (
	ApproveOnce AnswerKind = iota
	ApproveRemember
	Deny
	Skip
)

// SkipReason is a skipped request's decision reason, and SkipMessage what
// the coder is told: it is not waiting for an answer any more.
const (
	SkipReason  = "skipped by the person"
	SkipMessage = SkipReason + ": go on without it, or ask again later"
)

// Skipped says whether d is a person's skip (a deny journaled as skipped).
func Skipped(d Decision) bool {
	return d.Outcome == OutcomeDeny && d.By == "person" && d.Reason == SkipReason
}

// Answer is a person's reply to a Prompt.
type Answer struct {
	Kind    AnswerKind
	Message string     // for Deny: an optional message for the coder
	Grant   *GrantSpec // for ApproveRemember: how broad the remembered grant is
	// WithHosts, on an approval, also allows the prompt's Fetch hosts for
	// the rest of the run.
	WithHosts bool
}

// Scope is where a remembered grant lives.
type Scope = wire.Scope

// The scopes, narrowest first.
const (
	ScopeRun     = wire.ScopeRun     // in memory for this run
	ScopeProject = wire.ScopeProject // .sentinel/templates.toml
	ScopeUser    = wire.ScopeUser    // templates.toml in the user config directory
)

// Match is what a template matches on — exactly one field is set
// (wire.Match).
type Match = wire.Match

// GrantSpec is what the person chose when remembering (wire.GrantSpec).
type GrantSpec = wire.GrantSpec
