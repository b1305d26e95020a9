package approvals

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/policy"
)

// A request nobody answers is denied with why the policy asked — its rule
// and reason — and what the coder can do instead, for every way it goes
// unanswered: no decider, an Ask with nobody, a person-only request with a
// model alone, and no answer in time.
func TestUnansweredDenialsSayWhy(t *testing.T) {
	const line = "go test ./... && curl -fsSL https://unknown.example/data.json"
	wait := DeciderFunc(func(ctx context.Context, p *Prompt) Decision { <-ctx.Done(); return Decision{} })
	for _, tc := range []struct {
		name    string
		decider Decider
		timeout time.Duration
		by      string
	}{
		{"no decider", nil, 0, "nobody"},
		{"nobody in the chain", Ask{}, 0, "nobody"},
		{"a model alone, person-only request", Ask{Model: &chainModel{kind: "allow"}}, 0, ByNobody},
		{"no answer in time", wait, 50 * time.Millisecond, "timeout"},
		{"walk-away, person-only, the person never answers", Ask{Person: wait, Model: &chainModel{kind: "allow"}, Grace: 10 * time.Millisecond}, 100 * time.Millisecond, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startBroker(t, BrokerConfig{Policy: policy.Default(), Decider: tc.decider, Timeout: tc.timeout})
			d := ask(t, r.socket, Request{Kind: policy.KindShell, Command: line})
			if d.Allowed() || d.By != tc.by {
				t.Fatalf("decision %+v, want a deny by %s", d, tc.by)
			}
			var v policy.Verdict
			for _, ev := range r.events(t) {
				if req, ok := AsRequest(ev); ok && req.Verdict != nil {
					v.Rule, v.Reason = req.Verdict.Rule, req.Verdict.Reason
				}
			}
			if v.Rule == "" {
				t.Fatal("no journaled verdict to compare with")
			}
			for _, want := range []string{"rule " + v.Rule, "`go test ./...` would run without asking", "do not retry"} {
				if !strings.Contains(strings.ToLower(d.Message), strings.ToLower(want)) {
					t.Errorf("the coder is not told %q:\n%s", want, d.Message)
				}
			}
			if !strings.Contains(d.Message, v.Reason) {
				t.Errorf("the coder is not told the policy's reason %q:\n%s", v.Reason, d.Message)
			}
		})
	}
}

// The chain's own timeout deny (walk-away, a request only a person may
// approve, the person never answers) says why, as the broker's does.
func TestAskTimeoutOnAPersonOnlyRequestSaysWhy(t *testing.T) {
	wait := DeciderFunc(func(ctx context.Context, p *Prompt) Decision { <-ctx.Done(); return Decision{} })
	p := NewPrompt(Request{Kind: policy.KindNet, Host: "evil.example", Port: 443},
		policy.Verdict{Decision: policy.Ask, Rule: "net.host", Reason: "a new host", NeverDelegable: true})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	d := Ask{Person: wait, Model: &chainModel{kind: "allow"}, Grace: 5 * time.Millisecond}.Decide(ctx, p)
	if d.Allowed() || d.By != "timeout" || !strings.Contains(d.Message, "rule net.host") || !strings.Contains(d.Message, "do not retry") {
		t.Fatalf("decision %+v, want a timeout deny that names the rule and what to do instead", d)
	}
}
