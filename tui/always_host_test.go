package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// TestAlwaysOnAPersonOnlyHostIsForThisRun (#37 F1): a host card the
// policy asks of a person only says, before 2 is pressed, what 2 covers —
// the host, that it ends with the run and why — and 2 remembers it for the
// run alone, never in the project or user templates. A command card says
// where its grant is kept and that it never expires.
func TestAlwaysOnAPersonOnlyHostIsForThisRun(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 160, 50)
	v := policy.Verdict{Decision: policy.Ask, Rule: policy.RuleNetNewHost, Reason: "the host proxy.golang.org is not allowed by any rule", NeverDelegable: true}
	host := approvals.NewPrompt(approvals.Request{ID: "q1", Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443, Adapter: "proxy"}, v)
	h.openCard(host)
	s := strings.Join(strings.Fields(h.screen()), " ")
	for _, want := range []string{"exactly the host proxy.golang.org", "kept until this run ends", "it reaches a network host no rule allows: only a person may approve it, each run anew"} {
		if !strings.Contains(s, want) {
			t.Errorf("the host card does not say %q:\n%s", want, h.screen())
		}
	}
	if strings.Contains(s, "templates.toml") {
		t.Errorf("the host card offers to keep the host beyond the run:\n%s", h.screen())
	}
	h.press("2")
	a, ok := answered(host)
	if !ok || a.Kind != approvals.ApproveRemember || a.Grant == nil || a.Grant.Scope != approvals.ScopeRun {
		t.Fatalf("2 on a person-only host gave %+v, want the run scope", a)
	}

	h = newHarness(t, testInfo(), "dark", 160, 50)
	h.openCard(shellPrompt("npm run test", "npm", "run", "test"))
	s = strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(s, "kept in .sentinel/templates.toml, never expires") {
		t.Errorf("a command card does not say where and for how long 2 keeps it:\n%s", h.screen())
	}
}
