package supervisor

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Options configure a Supervisor.
type Options struct {
	// Backend answers every role's turns but those of a role in Roles.
	Backend Backend
	// Roles gives a role its own model (see Role).
	Roles   map[Role]RoleModel
	Prompts *Prompts      // nil: the built-in prompts
	Timeout time.Duration // per model turn; 0 means 60s
	Task    string        // the person's task, as given
	Journal *journal.Journal
	RunDir  string // where DECISIONS.md is kept; empty: no standing decisions
}

// Supervisor is one run's model supervisor: the gray-zone judge (it is an
// approvals.Decider), the advisor for a present person, and the completion
// reviewer. Every turn is journaled on the supervisor lane. Each role
// (judge, reviewer, adversary, relay) may have its own model; a role without
// one uses Options.Backend.
type Supervisor struct {
	backend Backend
	roles   map[Role]RoleModel
	prompts *Prompts
	timeout time.Duration
	task    string
	runDir  string
	ledger  *Ledger
	history *History
	journal *journal.Journal
	// standing are the lasting rules the person set through Relay.
	standing standingRules
}

// NewSupervisor makes a Supervisor.
func NewSupervisor(o Options) *Supervisor {
	if o.Prompts == nil {
		o.Prompts = DefaultPrompts()
	}
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	roles := make(map[Role]RoleModel, len(o.Roles))
	for r, m := range o.Roles {
		roles[r] = m
	}
	return &Supervisor{backend: o.Backend, roles: roles, prompts: o.Prompts, timeout: o.Timeout, task: o.Task,
		runDir: o.RunDir, ledger: NewLedger(o.Journal), history: NewHistory(0), journal: o.Journal}
}

// Totals is what the supervisor has cost so far, for the status bar and the
// final report.
// A nil Supervisor (no model configured) costs nothing.
func (s *Supervisor) Totals() Totals {
	if s == nil {
		return Totals{}
	}
	return s.ledger.Totals()
}

// Observe feeds one journal event to the supervisor's memory of the run.
func (s *Supervisor) Observe(ev journal.Event) { s.history.Observe(ev) }

// Follow feeds every event of j to the supervisor (and to each extra
// observer, e.g. a steering Watcher) until stop is called or j closes.
func (s *Supervisor) Follow(j *journal.Journal, also ...func(journal.Event)) (stop func()) {
	events, cancel := j.Subscribe(256, true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range events {
			s.Observe(ev)
			for _, f := range also {
				f(ev)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// ask runs one bounded model turn and records it. parse turns the reply
// into the record's decision; any error comes back for the caller to deny.
func (s *Supervisor) ask(ctx context.Context, role journal.Kind, t Turn, rec TurnRecord, parse func(Reply, *TurnRecord) error) error {
	backend, timeout := s.model(role)
	if backend == nil {
		return fmt.Errorf("no supervisor model is configured")
	}
	rec.Role, rec.Backend = role, backend.Name()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	reply, err := complete(ctx, backend, t)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("the supervisor model did not answer within %s", timeout)
	}
	rec.TokensIn, rec.TokensOut = reply.Usage.InputTokens, reply.Usage.OutputTokens
	if err == nil {
		err = parse(reply, &rec)
	}
	dur := time.Since(start)
	if err != nil {
		rec.Error = err.Error()
		rec.Decision = ""
		s.ledger.Record(rec, dur, fmt.Sprintf("%s failed: %s", role, clip(err.Error(), 200)))
		return err
	}
	s.ledger.Record(rec, dur, fmt.Sprintf("%s: %s — %s", role, rec.Decision, clip(rec.Reason, 200)))
	return nil
}

// complete calls the backend, turning a panic into an error.
func complete(ctx context.Context, b Backend, t Turn) (Reply, error) {
	type result struct {
		r   Reply
		err error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- result{err: fmt.Errorf("the supervisor backend failed: %v", p)}
			}
		}()
		r, err := b.Complete(ctx, t)
		ch <- result{r, err}
	}()
	// A backend that ignores its context must not hold the decision.
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
		return Reply{}, ctx.Err()
	}
}
