package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/policy"
)

// Person is who a policy-mode `ask` goes to: by default the person through
// the user service's console queue (QueuePerson), as a run's asks go when
// the person is away from its terminal. An error is a deny.
type Person interface {
	Ask(ctx context.Context, req approvals.Request, v policy.Verdict) (allow bool, reason string, err error)
}

// NoPerson is the Person while no one can be asked: every ask is a deny.
type NoPerson struct{}

// Ask denies.
func (NoPerson) Ask(context.Context, approvals.Request, policy.Verdict) (bool, string, error) {
	return false, "no one to ask: sentinel mcp has no person to route questions to yet", nil
}

// askTimeout bounds how long an exec waits for the person's answer.
const askTimeout = 10 * time.Minute

// QueuePerson is the person as the console queue reaches them: an ask is
// posted to the user service's approval queue (sentinel console, sentinel
// queue approve|deny ID) and waits there, as a run's does. No service
// running is no one to ask. An answer that remembers a grant is taken as
// an approval of this one call: the server does not write templates.
type QueuePerson struct {
	Run, Project string
}

// Ask posts the request and waits for the person's answer.
func (p QueuePerson) Ask(ctx context.Context, req approvals.Request, v policy.Verdict) (bool, string, error) {
	ctx, cancel := context.WithTimeout(ctx, askTimeout)
	defer cancel()
	q := &queue.Person{Run: p.Run, Project: p.Project, Coder: "mcp"}
	d, ok := q.Ask(ctx, approvals.NewPrompt(req, v))
	if !ok {
		if ctx.Err() != nil {
			return false, "", errors.New("no one to ask in time: no answer in the approval queue within " + askTimeout.String())
		}
		return false, "", errors.New("no one to ask: the user service is not running, so the approval queue (sentinel console) cannot be reached; the person can start it with `sentinel service`")
	}
	return d.Outcome == approvals.OutcomeAllow, d.Reason, nil
}

// policyGate is exec_mode = "policy": the same chain as a run's — the
// built-in rules and the person's policy.toml, then the person's
// remembered templates (user scope), then the Person.
type policyGate struct {
	engine    *policy.Engine
	templates *approvals.TemplateSet
	person    Person
	// asking holds a place for each ask waiting for the person, at most
	// maxAsksWaiting (the server's, across reloads; nil: no bound).
	asking chan struct{}
}

// maxAsksWaiting bounds the asks one server has waiting for the person at
// once. Each is a card in the person's console queue, shared with every
// run, and a connection to the user service for up to askTimeout: a
// client that sent 300 exec calls without waiting put 300 cards in the
// queue ahead of any run's, and nothing bounded 30,000. One past the
// bound is refused at once, without asking.
const maxAsksWaiting = 4

// newPolicyGate loads the chain for project (the server's workspace):
// policy.RuleFiles and the templates, the project's files only when
// trusted (gate_project.go). warnings are the lines for what was left out.
func newPolicyGate(person Person, project string) (g *policyGate, warnings []string, err error) {
	files, warnings := gateRuleFiles(project)
	eng, err := policy.Load(files...)
	if err != nil {
		return nil, nil, err
	}
	g = &policyGate{engine: eng, person: person}
	if g.person == nil {
		g.person = NoPerson{}
	}
	pf, warn := trustedStateFile(project, "templates.toml")
	if warn != "" {
		warnings = append(warnings, warn)
	}
	uf, _ := approvals.UserTemplatesPath()
	if uf != "" {
		if _, serr := os.Stat(uf); serr != nil {
			uf = ""
		}
	}
	if pf != "" || uf != "" {
		ts, err := approvals.LoadTemplates(pf, uf)
		if err != nil {
			return nil, nil, err
		}
		g.templates = ts
	}
	return g, warnings, nil
}

// refuseDenied is the chain's first step in allowlist mode: a line the
// policy denies (built-in rules, the person's and the trusted project's
// policy.toml) is refused whatever the allowlist covers; what it allows
// or asks still needs the allowlist, which stands for the person's
// answer. v is the gate engine's verdict on the line (judge).
func refuseDenied(v policy.Verdict) error {
	if v.Decision == policy.Deny {
		return &Refusal{Class: ClassPolicyDeny, Rule: "policy " + v.Rule, Reason: v.Reason, Use: "use a file tool for files, or a command the policy allows"}
	}
	return nil
}

// judge is the gate engine's verdict on line in pctx, and what it
// writes, from one walk of rd (the line's one parse).
func (g *policyGate) judge(rd *policy.Reading, pctx policy.Context) (policy.Verdict, policy.ShellWrites) {
	return g.engine.CheckWrites(policy.Query{Kind: policy.KindShell, Command: rd.Text(), Context: pctx, Reading: rd})
}

// decide returns the rule that allowed the line, or a refusal. v is the
// gate engine's verdict on it (judge).
func (g *policyGate) decide(ctx context.Context, line string, pctx policy.Context, v policy.Verdict) (string, error) {
	if v.Decision == policy.Allow && writesUnplaced(v.Parts, pctx.Cwd) { // runlater_unplaced.go
		v.Decision, v.Rule = policy.Ask, "mcp.writes-named-by-data"
		v.Reason = "it writes files named by data, not by its words (a patch, an archive, a copied tree, a git checkout), in the person's own files: one could be a file that runs code later (.envrc, a Makefile, a git hook)"
	}
	switch v.Decision {
	case policy.Allow:
		return "policy " + v.Rule, nil
	case policy.Deny:
		return "", &Refusal{Class: ClassPolicyDeny, Rule: "policy " + v.Rule, Reason: v.Reason, Use: "use a file tool for files, or a command the policy allows"}
	}
	req := approvals.Request{Kind: policy.KindShell, Command: line, Cwd: pctx.Cwd, Adapter: "mcp"}
	if g.templates != nil {
		if ids, ok := g.templates.Covering(req, v, pctx); ok {
			g.templates.MarkUsed(ids)
			return "template " + ids[0], nil
		}
	}
	if g.asking != nil {
		select {
		case g.asking <- struct{}{}:
			defer func() { <-g.asking }()
		default:
			return "", &Refusal{Class: ClassLimit, Rule: "policy " + v.Rule + " (ask)", Reason: fmt.Sprintf("%d questions from this server already wait for the person, the most it asks at once (the policy asks about this one: %s)", maxAsksWaiting, v.Reason),
				Use: "wait for the answers to the questions already asked, then call again"}
		}
	}
	allow, reason, err := g.person.Ask(ctx, req, v)
	if err != nil || !allow {
		if err != nil {
			reason = "the person could not be asked: " + err.Error()
		}
		class := ClassPolicyDeny // the person said no
		if _, none := g.person.(NoPerson); none || err != nil {
			class = ClassNoOneToAsk
		}
		return "", &Refusal{Class: class, Rule: "policy " + v.Rule + " (ask)", Reason: reason + " (the policy asks about it: " + v.Reason + ")",
			Use: "use a command the policy allows, a file tool, or ask the person to remember a template for it"}
	}
	return "person", nil
}
