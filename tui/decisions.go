package tui

// The person's decisions as typed messages. The approval card, the
// remember chooser and the review screen only return them (a page hands
// them to the root with its update); the root applies each to the broker,
// the one place an answer leaves the TUI. Nothing that draws or reads keys
// can answer a prompt or a review by itself.

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/runner"
)

type (
	// ApproveMsg approves Prompt once; WithHosts also allows the registry
	// hosts a package install will fetch from, for the rest of the run.
	ApproveMsg struct {
		Prompt    *approvals.Prompt
		WithHosts bool
	}
	// DenyMsg denies Prompt; Message, if any, reaches the coder verbatim.
	DenyMsg struct {
		Prompt  *approvals.Prompt
		Message string
	}
	// SkipMsg answers Prompt with a deny telling the coder the person
	// skipped it (approvals.Skip): it goes on rather than waiting.
	SkipMsg struct {
		Prompt *approvals.Prompt
	}
	// RememberMsg approves Prompt and remembers Grant for later requests.
	RememberMsg struct {
		Prompt *approvals.Prompt
		Grant  *approvals.GrantSpec
	}
	// ReviewVerdictMsg approves or rejects the change under review; Note
	// says what happened, for the footer.
	ReviewVerdictMsg struct {
		Request *runner.ReviewRequest
		Answer  runner.ReviewAnswer
		Note    string
	}
)

// broker carries a decision out of the TUI: the answer to a prompt goes to
// the approval broker waiting on it, a review verdict to the run (or to
// `sentinel review`) waiting on the request's Answer channel.
type broker interface {
	// Answer replies to a prompt; only the first answer counts. It must not block.
	Answer(p *approvals.Prompt, a approvals.Answer)
	// Verdict sends a review's verdict; a returned command finishes a send
	// that would block, so Update never waits.
	Verdict(req *runner.ReviewRequest, a runner.ReviewAnswer) tea.Cmd
}

// outbox is where a page leaves decisions for the root, in order.
type outbox []tea.Msg

func (o *outbox) decide(d tea.Msg) { *o = append(*o, d) }

// take returns the decisions and empties the outbox.
func (o *outbox) take() []tea.Msg {
	d := *o
	*o = nil
	return d
}

// apply hands each decision to the broker, in order.
func apply(b broker, ds []tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, d := range ds {
		switch d := d.(type) {
		case ApproveMsg:
			b.Answer(d.Prompt, approvals.Answer{Kind: approvals.ApproveOnce, WithHosts: d.WithHosts})
		case RememberMsg:
			b.Answer(d.Prompt, approvals.Answer{Kind: approvals.ApproveRemember, Grant: d.Grant})
		case DenyMsg:
			b.Answer(d.Prompt, approvals.Answer{Kind: approvals.Deny, Message: d.Message})
		case SkipMsg:
			b.Answer(d.Prompt, approvals.Answer{Kind: approvals.Skip})
		case ReviewVerdictMsg:
			cmds = append(cmds, b.Verdict(d.Request, d.Answer))
		}
	}
	return tea.Batch(cmds...)
}

// channelBroker answers on the prompt's and the review request's own
// channels: the live run's broker and `sentinel review` wait there.
type channelBroker struct{}

func (channelBroker) Answer(p *approvals.Prompt, a approvals.Answer) { p.Answer(a) }

// Verdict answers a review request: at once when the run is waiting (the
// Answer channel should have room for one), else from a command so Update
// never blocks.
func (channelBroker) Verdict(req *runner.ReviewRequest, a runner.ReviewAnswer) tea.Cmd {
	if req.Answer == nil {
		return func() tea.Msg { return errMsg{errors.New("review: the run gave no way to answer; nothing was landed")} }
	}
	select {
	case req.Answer <- a:
		return nil
	default:
	}
	return func() tea.Msg {
		req.Answer <- a
		return nil
	}
}
