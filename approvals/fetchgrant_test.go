package approvals

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// fetchBroker is a broker with the built-in policy, a person and a
// configured npm registry.
func fetchBroker(t *testing.T, d Decider) *testRun {
	t.Helper()
	eng, err := policy.Load()
	if err != nil {
		t.Fatal(err)
	}
	reg := policy.Registries{Hosts: map[string][]string{policy.EcoNPM: {"npm.corp.example:8443"}}}
	return startBroker(t, BrokerConfig{Policy: eng, Decider: d, Timeout: time.Minute,
		Registries: func() policy.Registries { return reg }})
}

// answerNext answers the next prompt with a, checking it names want.
func answerNext(t *testing.T, q *PersonQueue, want string, a Answer) *Prompt {
	t.Helper()
	p := <-q.Prompts()
	if !strings.Contains(p.Request.Summary(), want) {
		t.Fatalf("prompt for %q, want %q", p.Request.Summary(), want)
	}
	p.Answer(a)
	return p
}

var proxyAsk = Request{Kind: policy.KindNet, Host: "npm.corp.example", Port: 8443, URL: "https://npm.corp.example:8443/", Adapter: "proxy"}

// TestInstallApprovedWithItsHostsNeedsNoSecondCard: npm install's prompt
// names the configured registry; approved with its hosts, the proxy's
// request for that host is allowed by the run's grant, with no prompt.
func TestInstallApprovedWithItsHostsNeedsNoSecondCard(t *testing.T) {
	q := NewPersonQueue()
	r := fetchBroker(t, q)
	got := make(chan Decision, 1)
	go func() {
		got <- r.broker.Decide(context.Background(), Request{Kind: policy.KindShell, Command: "npm install"})
	}()
	p := answerNext(t, q, "npm install", Answer{Kind: ApproveOnce, WithHosts: true})
	if p.Fetch == nil || strings.Join(p.Fetch.Hosts, ",") != "npm.corp.example:8443" {
		t.Fatalf("the prompt's fetch = %+v, want the configured registry", p.Fetch)
	}
	d := <-got
	if !d.Allowed() || strings.Join(d.Hosts, ",") != "npm.corp.example:8443" || !strings.Contains(d.Reason, "npm.corp.example:8443 for this run") {
		t.Fatalf("decision = %+v", d)
	}
	net := r.broker.Decide(context.Background(), proxyAsk)
	if !net.Allowed() || !strings.HasPrefix(net.By, "template:") {
		t.Fatalf("the proxy's request = %+v, want allowed by the run's grant", net)
	}
	select {
	case p := <-q.Prompts():
		t.Fatalf("a second card: %s", p.Request.Summary())
	default:
	}
}

// TestInstallApprovedWithoutHostsOrDeniedAllowsNoHost: approving without
// the hosts, or denying, leaves the host to be asked about as today.
func TestInstallApprovedWithoutHostsOrDeniedAllowsNoHost(t *testing.T) {
	for _, a := range []Answer{{Kind: ApproveOnce}, {Kind: Deny, WithHosts: true}} {
		q := NewPersonQueue()
		r := fetchBroker(t, q)
		go r.broker.Decide(context.Background(), Request{Kind: policy.KindShell, Command: "npm install"})
		answerNext(t, q, "npm install", a)
		got := make(chan Decision, 1)
		go func() { got <- r.broker.Decide(context.Background(), proxyAsk) }()
		answerNext(t, q, "npm.corp.example", Answer{Kind: Deny})
		if d := <-got; d.Allowed() {
			t.Fatalf("answer %+v: the host was allowed without being asked: %+v", a, d)
		}
	}
}

// TestForgedHostsAreNotAllowed: a decider that answers with hosts the
// install does not need gets none of them.
func TestForgedHostsAreNotAllowed(t *testing.T) {
	forger := DeciderFunc(func(ctx context.Context, p *Prompt) Decision {
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "approved once", Hosts: []string{"evil.example", "npm.corp.example:8443"}}
	})
	r := fetchBroker(t, forger)
	d := r.broker.Decide(context.Background(), Request{Kind: policy.KindShell, Command: "npm install"})
	if strings.Join(d.Hosts, ",") != "npm.corp.example:8443" {
		t.Fatalf("hosts allowed = %q, want only the install's own", d.Hosts)
	}
	// a command that fetches nothing allows no host, whatever the decider says
	d = r.broker.Decide(context.Background(), Request{Kind: policy.KindShell, Command: "mytool build"})
	if len(d.Hosts) != 0 {
		t.Fatalf("a non-install allowed %q", d.Hosts)
	}
}
