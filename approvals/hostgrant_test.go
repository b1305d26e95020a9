package approvals

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// webFetch is the coder's own tool asking for a page.
var webFetch = Request{Kind: policy.KindNet, URL: "https://Docs.Example.com/page", Tool: "WebFetch", Adapter: "claude"}

// proxyTo is the sandbox's proxy asking for host:port.
func proxyTo(host string, port int) Request {
	return Request{Kind: policy.KindNet, Host: host, Port: port, URL: "https://" + host + "/", Adapter: ProxyAdapter}
}

// decideAsync decides req in the background; the person answers from q.
func decideAsync(r *testRun, req Request) <-chan Decision {
	got := make(chan Decision, 1)
	go func() { got <- r.broker.Decide(context.Background(), req) }()
	return got
}

// answerSoon is answerNext bounded: a card that never comes fails the
// test rather than hanging it (a hang bound, not a timing assertion).
func answerSoon(t *testing.T, q *PersonQueue, want string, a Answer) {
	t.Helper()
	select {
	case p := <-q.Prompts():
		if !strings.Contains(p.Request.Summary(), want) {
			t.Fatalf("prompt for %q, want %q", p.Request.Summary(), want)
		}
		p.Answer(a)
	case <-time.After(30 * time.Second):
		t.Fatalf("no card for %q", want)
	}
}

// noPrompt fails when the person was asked anything.
func noPrompt(t *testing.T, q *PersonQueue, what string) {
	t.Helper()
	select {
	case p := <-q.Prompts():
		t.Fatalf("%s: the person was asked about %s", what, p.Request.Summary())
	default:
	}
}

// proxyGrants is the run's templates for the proxy.
func proxyGrants(s *TemplateSet) []Template {
	var out []Template
	for _, t := range s.All() {
		if t.ProxyOnly {
			out = append(out, t)
		}
	}
	return out
}

// TestAnApprovedToolCallsHostIsARunTemplateForTheProxy: a WebFetch the
// person approves once leaves one run-scope host template, journaled with
// the others; the proxy's ask for that host and port is then allowed by
// that template through the one chain (By names it), with no card. Take
// the template out of the set, or let it expire, and the proxy asks the
// person again: nothing else remembers the host.
func TestAnApprovedToolCallsHostIsARunTemplateForTheProxy(t *testing.T) {
	q := NewPersonQueue()
	r := fetchBroker(t, q)
	set := r.broker.Templates()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	set.now = func() time.Time { return now }

	got := decideAsync(r, webFetch)
	answerSoon(t, q, "xample.com", Answer{Kind: ApproveOnce})
	if d := <-got; !d.Allowed() {
		t.Fatalf("the fetch = %+v", d)
	}
	gs := proxyGrants(set)
	if len(gs) != 1 {
		t.Fatalf("want one template for the proxy, got %+v", set.All())
	}
	g := gs[0]
	if g.Scope != ScopeRun || g.Kind() != "host" || g.Match.Host != "docs.example.com:443" || !g.Expires.Equal(now.Add(HostGrantTTL)) {
		t.Fatalf("the grant = %+v, want host docs.example.com:443, run scope, expiring in %s", g, HostGrantTTL)
	}
	journaled := false
	for _, ev := range r.events(t) {
		if ev.Kind == KindTemplateAdded && strings.Contains(ev.Text, g.ID) && strings.Contains(ev.Text, "run scope") {
			journaled = true
		}
	}
	if !journaled {
		t.Fatalf("the grant %s is not journaled as a template", g.ID)
	}

	d := r.broker.Decide(context.Background(), proxyTo("DOCS.example.com", 443))
	if !d.Allowed() || d.By != "template:"+g.ID || !strings.Contains(d.Reason, "proxy") {
		t.Fatalf("the proxy's ask = %+v, want allowed by template %s", d, g.ID)
	}
	noPrompt(t, q, "the proxy's ask for the approved host")

	// Another port, or the tool's own next fetch: asked as before.
	for _, req := range []Request{proxyTo("docs.example.com", 80), webFetch} {
		got := decideAsync(r, req)
		answerSoon(t, q, "xample.com", Answer{Kind: Deny})
		if d := <-got; d.Allowed() {
			t.Fatalf("%s was allowed without a card: %+v", req.Summary(), d)
		}
	}

	// Expired: asked again.
	now = now.Add(HostGrantTTL)
	got = decideAsync(r, proxyTo("docs.example.com", 443))
	answerSoon(t, q, "xample.com", Answer{Kind: Deny})
	if d := <-got; d.Allowed() {
		t.Fatalf("an expired grant let the proxy through: %+v", d)
	}

	// Renewed by the next approved fetch (no second template), then
	// removed from the set: asked again.
	got = decideAsync(r, webFetch)
	answerSoon(t, q, "xample.com", Answer{Kind: ApproveOnce})
	<-got
	if gs := proxyGrants(set); len(gs) != 1 || gs[0].ID != g.ID || !gs[0].Expires.Equal(now.Add(HostGrantTTL)) {
		t.Fatalf("after a second approval: %+v, want %s renewed", gs, g.ID)
	}
	if d := r.broker.Decide(context.Background(), proxyTo("docs.example.com", 443)); d.By != "template:"+g.ID {
		t.Fatalf("the renewed grant did not answer: %+v", d)
	}
	if err := set.Remove(g.ID); err != nil {
		t.Fatal(err)
	}
	got = decideAsync(r, proxyTo("docs.example.com", 443))
	answerSoon(t, q, "xample.com", Answer{Kind: Deny})
	if d := <-got; d.Allowed() {
		t.Fatalf("with its template removed the host was still let through: %+v", d)
	}
}

// TestOnlyAnAllowedToolCallGrantsTheProxyAHost: a denied fetch, and the
// proxy's own allowed ask, leave no template.
func TestOnlyAnAllowedToolCallGrantsTheProxyAHost(t *testing.T) {
	q := NewPersonQueue()
	r := fetchBroker(t, q)
	for _, c := range []struct {
		req Request
		a   Answer
	}{{webFetch, Answer{Kind: Deny}}, {proxyTo("self.example", 443), Answer{Kind: ApproveOnce}}} {
		got := decideAsync(r, c.req)
		answerSoon(t, q, "xample", c.a)
		<-got
	}
	if gs := proxyGrants(r.broker.Templates()); len(gs) != 0 {
		t.Fatalf("templates for the proxy: %+v, want none", gs)
	}
}
