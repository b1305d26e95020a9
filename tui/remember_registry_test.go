package tui

import (
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// A card for a package registry's host offers to remember the whole
// registry for the project; choosing it answers with every host of the
// preset, in project scope.
func TestRememberChooserOffersTheRegistryPreset(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 160, 40)
	v := policy.Verdict{Decision: policy.Ask, Rule: policy.RuleNetNewHost, Reason: "the host proxy.golang.org is not allowed by any rule",
		Parts: []policy.Part{{Text: "proxy.golang.org:443", Decision: policy.Ask}}}
	p := approvals.NewPrompt(approvals.Request{ID: "q1", Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443, Adapter: "proxy"}, v)
	h.openCard(p)
	h.send(keyMsg("r"))
	contains(t, h.screen(), "allow the Go module registries for this project (proxy.golang.org, sum.golang.org)")
	h.press("down", "down")
	s := h.screen()
	contains(t, s, "▸ allow the Go module registries")
	contains(t, s, "[project]")
	h.press("enter")
	a, ok := answered(p)
	if !ok || a.Kind != approvals.ApproveRemember || a.Grant == nil {
		t.Fatalf("answer = %+v, %v", a, ok)
	}
	g := a.Grant
	if g.Scope != approvals.ScopeProject || g.Match.Host != "proxy.golang.org" || len(g.Also) != 1 || g.Also[0].Host != "sum.golang.org" {
		t.Fatalf("grant = %+v, want proxy.golang.org and sum.golang.org for the project", *g)
	}
}

// A host outside every registry gets no preset.
func TestRememberChooserHasNoPresetForOtherHosts(t *testing.T) {
	opts := suggestGrants(approvals.Request{Kind: policy.KindNet, Host: "docs.example.com", Port: 443}, policy.Verdict{Decision: policy.Ask})
	for _, o := range opts {
		if o.project || len(o.also) > 0 {
			t.Errorf("option %q is a preset", o.label)
		}
	}
}
