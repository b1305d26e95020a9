package approvals

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A person-only request (a secret read, a write that runs later) answered
// "always" for the project or every project is remembered for this run
// only, and the decision says so; a plain command keeps the scope asked.
func TestPersonOnlyIsRememberedForTheRunAtMost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		req     func(ws string) Request
		scope   Scope
		limited bool
	}{
		{"secret read", func(string) Request { return Request{Kind: policy.KindShell, Command: "cat .env"} }, ScopeUser, true},
		{"secret read in a compound", func(string) Request { return Request{Kind: policy.KindShell, Command: "ls && cat .env"} }, ScopeProject, true},
		{"run-later write", func(ws string) Request {
			return Request{Kind: policy.KindWrite, Path: filepath.Join(ws, ".envrc")}
		}, ScopeProject, true},
		{"push to a remote", func(string) Request { return Request{Kind: policy.KindShell, Command: "git -C . push origin main"} }, ScopeProject, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := NewPersonQueue()
			r := startBroker(t, BrokerConfig{Decider: q})
			ws := r.broker.cfg.Context.Workspace
			asked := make(chan Verdict1, 1)
			go func() {
				p := <-q.Prompts()
				asked <- Verdict1{p.Verdict}
				ms := SuggestGrants(p.Request, p.Verdict)
				if len(ms) == 0 { // as the card's "always" on a write
					ms = []Match{{Path: filepath.Base(p.Request.Path)}}
				}
				p.Answer(Answer{Kind: ApproveRemember, Grant: &GrantSpec{Scope: tc.scope, Match: ms[0]}})
			}()
			d := ask(t, r.socket, tc.req(ws))
			v := <-asked
			if !d.Allowed() {
				t.Fatalf("decision = %+v (verdict %s %s)", d, v.v.Rule, v.v.Reason)
			}
			all := r.broker.Templates().All()
			if len(all) != 1 || all[0].Scope != ScopeRun {
				t.Fatalf("remembered %+v, want one run-scope template", all)
			}
			if !strings.Contains(d.Reason, "for this run only") {
				t.Errorf("the decision does not say it is remembered for this run only: %s", d.Reason)
			}
		})
	}
}

// Verdict1 carries a prompt's verdict out of the answering goroutine.
type Verdict1 struct{ v policy.Verdict }

// RememberLimit keeps the user scope for what a person may remember.
func TestRememberLimitLeavesOrdinaryRequests(t *testing.T) {
	if s, why := RememberLimit(policy.Verdict{Rule: "net.new-host", Parts: []policy.Part{{Rule: "net.new-host"}}}); s != ScopeUser || why != "" {
		t.Errorf("a host: %s %q", s, why)
	}
	fetch := policy.Verdict{Rule: policy.RuleGitNetwork, NeverDelegable: true, Parts: []policy.Part{{Rule: policy.RuleGitNetwork, Argv: []string{"git", "fetch", "origin"}}}}
	if s, why := RememberLimit(fetch); s != ScopeUser || why != "" {
		t.Errorf("a fetch: %s %q", s, why)
	}
	g, note := LimitGrant(GrantSpec{Scope: ScopeRun}, policy.Verdict{Rule: policy.RulePathReadSecret})
	if g.Scope != ScopeRun || note != "" {
		t.Errorf("run scope asked: %+v %q", g, note)
	}
}
