package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// containmentWithPerson is the containment of a run in a temporary
// project, its broker started with a person to ask.
func containmentWithPerson(t *testing.T) (*containment, *approvals.PersonQueue) {
	t.Helper()
	q := approvals.NewPersonQueue()
	return startContainment(t, &Project{Root: t.TempDir()}, q), q
}

// answerCard answers the next card, which must name want (bounded: a card
// that never comes fails the test instead of hanging it).
func answerCard(t *testing.T, q *approvals.PersonQueue, want string, a approvals.Answer) {
	t.Helper()
	select {
	case p := <-q.Prompts():
		if !strings.Contains(p.Request.Summary(), want) {
			t.Fatalf("card for %q, want %q", p.Request.Summary(), want)
		}
		p.Answer(a)
	case <-time.After(30 * time.Second):
		t.Fatalf("no card for %q", want)
	}
}

// TestTheProxyFindsAnApprovedFetchsHostAmongTheRunsTemplates: after the
// person approves the coder's WebFetch once, the proxy's ask for that host
// is answered by a run-scope template of the broker's set, and DECISIONS.md
// shows it decided by that template. With the template removed from the
// set the proxy's ask reaches the person again: the runner keeps no list
// of hosts of its own.
func TestTheProxyFindsAnApprovedFetchsHostAmongTheRunsTemplates(t *testing.T) {
	t.Parallel()

	r, q := containmentWithPerson(t)
	ctx := context.Background()
	fetched := make(chan approvals.Decision, 1)
	go func() {
		fetched <- r.broker.Decide(ctx, approvals.Request{Kind: policy.KindNet, URL: "https://docs.example.com/page", Tool: "WebFetch", Adapter: "claude"})
	}()
	answerCard(t, q, "docs.example.com", approvals.Answer{Kind: approvals.ApproveOnce})
	if d := <-fetched; !d.Allowed() {
		t.Fatalf("the fetch = %+v", d)
	}
	var grant approvals.Template
	for _, tp := range r.broker.Templates().All() {
		if tp.ProxyOnly {
			grant = tp
		}
	}
	if grant.ID == "" || grant.Scope != approvals.ScopeRun || grant.Match.Host != "docs.example.com:443" {
		t.Fatalf("no run-scope template for the proxy among %+v", r.broker.Templates().All())
	}
	ok, why := r.askHost(ctx, "docs.example.com", 443)
	if !ok || !strings.Contains(why, grant.ID) {
		t.Fatalf("askHost = %v %q, want allowed by template %s", ok, why, grant.ID)
	}
	r.journal.Sync()
	evs, _ := journal.ReadFile(r.journal.Path())
	if dec := renderDecisions(&Meta{ID: "r-t"}, evs); !strings.Contains(dec, "template ("+grant.ID) {
		t.Errorf("DECISIONS.md does not show the proxy's ask decided by %s:\n%s", grant.ID, dec)
	}

	if err := r.broker.Templates().Remove(grant.ID); err != nil {
		t.Fatal(err)
	}
	asked := make(chan bool, 1)
	go func() {
		ok, _ := r.askHost(ctx, "docs.example.com", 443)
		asked <- ok
	}()
	answerCard(t, q, "docs.example.com", approvals.Answer{Kind: approvals.Deny})
	if <-asked {
		t.Fatal("with its template removed, the host was let through all the same")
	}
}
