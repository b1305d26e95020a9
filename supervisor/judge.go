package supervisor

import (
	"context"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// ByWho is the Decision.By of every supervisor decision.
const ByWho = approvals.BySupervisor

// The supervisor is the model in the approval chain (approvals.Ask).
var _ approvals.Model = (*Supervisor)(nil)

// judgeFacts are the fields the judge prompts may use.
type judgeFacts struct {
	Task, Request, Kind, PolicyReason, Recent, Decisions, Validations string
}

// Decide is the judge role (approvals.Model): it answers p with one
// stateless model turn.
// It never allows what the policy marks NeverDelegable, and any error,
// timeout, refusal or unparseable answer is a deny saying why.
func (s *Supervisor) Decide(ctx context.Context, p *approvals.Prompt) approvals.Decision {
	if p.Verdict.NeverDelegable {
		// Nobody decided this: the model is never asked (approvals.ByNobody).
		reason := fmt.Sprintf("only a person may approve this (%s), and no person is answering", clip(p.Verdict.Reason, 160))
		return approvals.Decision{Outcome: approvals.OutcomeDeny, By: approvals.ByNobody, Reason: reason, Message: "Sentinel denied this: " + reason}
	}
	v, err := s.judge(ctx, p, KindJudge)
	if err != nil {
		return deny("the supervisor could not judge this request: " + clip(err.Error(), 240))
	}
	if ctx.Err() != nil {
		return deny("the supervisor answered after the request was given up")
	}
	if v.Decision != "allow" {
		return deny(v.Reason)
	}
	if v.Risk == "high" {
		return deny("the supervisor rated this high risk: " + v.Reason)
	}
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: ByWho, Reason: v.Reason}
}

// Advise asks the model about p without deciding, for a person's card.
func (s *Supervisor) Advise(ctx context.Context, p *approvals.Prompt) (Verdict, error) {
	return s.judge(ctx, p, KindAdvice)
}

func (s *Supervisor) judge(ctx context.Context, p *approvals.Prompt, role journal.Kind) (Verdict, error) {
	facts := s.facts(p)
	sys, err := s.prompts.Render("judge.system", facts)
	if err != nil {
		return Verdict{}, err
	}
	user, err := s.prompts.Render("judge.user", facts)
	if err != nil {
		return Verdict{}, err
	}
	var v Verdict
	err = s.ask(ctx, role, Turn{Role: string(role), System: sys, User: user, SchemaName: "judgment", Schema: judgeSchema},
		TurnRecord{RequestID: p.Request.ID}, func(r Reply, rec *TurnRecord) error {
			var perr error
			v, perr = ParseVerdict(r.Text)
			rec.Decision, rec.Reason, rec.Risk = v.Decision, v.Reason, v.Risk
			return perr
		})
	return v, err
}

func (s *Supervisor) facts(p *approvals.Prompt) judgeFacts {
	recent, validations := s.history.Snapshot()
	reason := p.Verdict.Reason
	if reason == "" {
		reason = "no rule covers it"
	}
	return judgeFacts{Task: s.task, Request: describeRequest(p.Request), Kind: string(p.Request.Kind),
		PolicyReason: reason, Recent: recent, Validations: validations, Decisions: s.decisions()}
}

// maxInput bounds how much of a request's raw input (a file's content) the
// model sees.
const maxInput = 6000

// describeRequest is the request as the model sees it.
func describeRequest(r approvals.Request) string {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	line("command", r.Command)
	line("path", r.Path)
	line("url", r.URL)
	if r.Host != "" {
		h := r.Host
		if r.Port != 0 {
			h = fmt.Sprintf("%s:%d", r.Host, r.Port)
		}
		line("host", h)
	}
	line("tool", r.Tool)
	line("cwd", r.Cwd)
	line("agent", r.Adapter)
	if len(r.Input) > 0 {
		in := string(r.Input)
		if len(in) > maxInput {
			in = in[:maxInput] + fmt.Sprintf("… (%d more bytes not shown)", len(in)-maxInput)
		}
		fmt.Fprintf(&b, "input (as the coder sent it):\n%s\n", in)
	}
	return strings.TrimRight(b.String(), "\n")
}

func deny(reason string) approvals.Decision {
	return approvals.Decision{Outcome: approvals.OutcomeDeny, By: ByWho, Reason: reason,
		Message: "Sentinel's supervisor denied this: " + reason}
}

// Recommend is the advice role (approvals.Model): the card's one line for
// p, from one advice turn; the person decides.
func (s *Supervisor) Recommend(ctx context.Context, p *approvals.Prompt) string {
	return Recommendation(s.Advise(ctx, p))
}

// Recommendation is the card's one line for an advice turn.
func Recommendation(v Verdict, err error) string {
	if err != nil {
		return "supervisor: no advice (" + clip(err.Error(), 120) + ")"
	}
	return fmt.Sprintf("supervisor suggests %s (%s risk): %s", strings.ToUpper(v.Decision), v.Risk, v.Reason)
}
