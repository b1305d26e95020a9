package mcpserver

import (
	"context"
	"os"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// Person is who a policy-mode `ask` goes to. Until the console queue
// exists there is none: NoPerson denies every question, and a server given
// a Person (the console, later) asks it instead. An error is a deny.
type Person interface {
	Ask(ctx context.Context, req approvals.Request, v policy.Verdict) (allow bool, reason string, err error)
}

// NoPerson is the Person while no one can be asked: every ask is a deny.
type NoPerson struct{}

// Ask denies.
func (NoPerson) Ask(context.Context, approvals.Request, policy.Verdict) (bool, string, error) {
	return false, "no one to ask: sentinel mcp has no person to route questions to yet", nil
}

// policyGate is exec_mode = "policy": Sentinel's policy, then the person's
// remembered templates (user scope), then the Person.
type policyGate struct {
	engine    *policy.Engine
	templates *approvals.TemplateSet
	person    Person
}

func newPolicyGate(person Person) (*policyGate, error) {
	g := &policyGate{engine: policy.Default(), person: person}
	if g.person == nil {
		g.person = NoPerson{}
	}
	if uf, err := approvals.UserTemplatesPath(); err == nil {
		if _, serr := os.Stat(uf); serr == nil {
			ts, err := approvals.LoadTemplates("", uf)
			if err != nil {
				return nil, err
			}
			g.templates = ts
		}
	}
	return g, nil
}

// decide returns the rule that allowed the line, or a refusal.
func (g *policyGate) decide(ctx context.Context, line string, pctx policy.Context) (string, error) {
	v := g.engine.Check(policy.Query{Kind: policy.KindShell, Command: line, Context: pctx})
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
