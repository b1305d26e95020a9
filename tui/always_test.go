package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// TestAlwaysSaysWhatItCovers: the card says, before 2 is pressed, exactly
// what "always" remembers and where; for a write that runs code later it
// says the grant ends with the run, and 2 (or the chooser, whatever scope
// key is pressed) stores nothing broader.
func TestAlwaysSaysWhatItCovers(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 160, 50)
	cmd := shellPrompt("npm run test", "npm", "run", "test")
	h.openCard(cmd)
	s := h.screen()
	contains(t, s, "2 always")
	contains(t, s, "kept in .sentinel/templates.toml")

	v := policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathWriteLater, Reason: "writes .envrc, a file that runs code later", NeverDelegable: true}
	envrc := approvals.NewPrompt(approvals.Request{ID: "q2", Kind: policy.KindWrite, Path: "/work/ws/.envrc", Cwd: "/work/ws", Adapter: "demo"}, v)
	h.press("a")
	h.clk.Add(DefaultGuard)
	h.openCard(envrc)
	s = h.screen()
	contains(t, s, "kept until this run ends")
	contains(t, s, "runs code later")
	if strings.Contains(s, "templates.toml") {
		t.Fatalf("the card for .envrc offers to keep it beyond the run:\n%s", s)
	}
	h.press("r")
	for range 5 {
		h.press("o") // cycle the scope: it must never leave the run
	}
	h.press("enter")
	a, ok := answered(envrc)
	if !ok || a.Kind != approvals.ApproveRemember || a.Grant == nil || a.Grant.Scope != approvals.ScopeRun {
		t.Fatalf("remembering .envrc gave %+v, want the run scope", a)
	}
}
