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
	fetch := policy.Verdict{Rule: policy.RuleGitNetwork, Parts: []policy.Part{{Rule: policy.RuleGitNetwork, Argv: []string{"git", "fetch", "origin"}}}}
	if s, why := RememberLimit(fetch); s != ScopeUser || why != "" {
		t.Errorf("a fetch: %s %q", s, why)
	}
	g, note := LimitGrant(GrantSpec{Scope: ScopeRun}, policy.Verdict{Rule: policy.RulePathReadSecret})
	if g.Scope != ScopeRun || note != "" {
		t.Errorf("run scope asked: %+v %q", g, note)
	}
}

// TestPersonOnlyIsNeverRememberedBeyondTheRun (#37 F1): whatever the
// policy asks of a person only — a new host, a command that talks to the
// network — is remembered for this run at most, however broad the scope
// the answer asked for, and says why.
func TestPersonOnlyIsNeverRememberedBeyondTheRun(t *testing.T) {
	for name, v := range map[string]policy.Verdict{
		"a new host": {Decision: policy.Ask, Rule: policy.RuleNetNewHost, NeverDelegable: true},
		"a fetch":    {Decision: policy.Ask, Rule: policy.RuleGitNetwork, NeverDelegable: true, Parts: []policy.Part{{Rule: policy.RuleGitNetwork, Argv: []string{"git", "fetch", "origin"}}}},
		"curl":       {Decision: policy.Ask, Rule: "net.tool", NeverDelegable: true},
	} {
		if s, why := RememberLimit(v); s != ScopeRun || why == "" {
			t.Errorf("%s: remembered up to %s (%q), want the run", name, s, why)
		}
		for _, asked := range []Scope{ScopeProject, ScopeUser} {
			if g, note := LimitGrant(GrantSpec{Scope: asked}, v); g.Scope != ScopeRun || note == "" {
				t.Errorf("%s: %s asked, kept %s (%q)", name, asked, g.Scope, note)
			}
		}
	}
}

// TestRememberedSaysItsScope (#37): a remembered approval's reason — what
// DECISIONS.md shows — says the scope it holds in, a run's above all.
func TestRememberedSaysItsScope(t *testing.T) {
	for scope, want := range map[Scope]string{ScopeRun: "(for this run only)", ScopeProject: "(in this project)", ScopeUser: "(for every project of yours)"} {
		q := NewPersonQueue()
		r := startBroker(t, BrokerConfig{Decider: q})
		go func() {
			p := <-q.Prompts()
			p.Answer(Answer{Kind: ApproveRemember, Grant: &GrantSpec{Scope: scope, Match: SuggestGrants(p.Request, p.Verdict)[0]}})
		}()
		d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: "frobnicate --widgets 3"})
		if !d.Allowed() || !strings.HasSuffix(d.Reason, want) {
			t.Errorf("%s: the decision's reason %q does not end %q", scope, d.Reason, want)
		}
	}
}
