package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// runChain is a run's approval chain as the broker holds it: the built-in
// rules plus the given project rules, its context and its templates.
func runChain(t *testing.T, projectRules string) (*approvals.Broker, *approvals.TemplateSet) {
	t.Helper()
	dir, err := os.MkdirTemp("", "tc") // short: unix socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var files []string
	if projectRules != "" {
		f := filepath.Join(dir, "policy.toml")
		if err := os.WriteFile(f, []byte(projectRules), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	eng, err := policy.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	set := approvals.NewTemplateSet()
	b, err := approvals.NewBroker(approvals.BrokerConfig{SocketPath: filepath.Join(dir, "b.sock"), Policy: eng,
		Context: policy.Context{Workspace: "/work/ws", Cwd: "/work/ws"}, Templates: set})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, set
}

// chainPreview is the remember preview of a run with only the built-in rules.
func chainPreview(t *testing.T) func(approvals.GrantSpec, []approvals.Request) []approvals.Request {
	b, _ := runChain(t, "")
	return b.Preview
}

// The remember preview asks the run's own chain. A project rule that
// denies one of the earlier requests keeps it out of the preview, as the
// broker keeps it out of the grant; a preview from an engine of the TUI's
// own (the built-in rules alone) would have counted it.
func TestRememberPreviewAgreesWithTheRunsChain(t *testing.T) {
	const rules = `
[[rule]]
id = "no-deploy"
decision = "deny"
argv = ["mytool", "run", "deploy"]
reason = "deploys are for release day"
`
	b, set := runChain(t, rules)
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.m.opts.Preview = b.Preview
	h.s.Past = []approvals.Request{
		{Kind: policy.KindShell, Command: "mytool run test", Cwd: "/work/ws"},
		{Kind: policy.KindShell, Command: "mytool run deploy", Cwd: "/work/ws"},
		{Kind: policy.KindShell, Command: "mytool run lint", Cwd: "/work/ws"},
		{ID: "q1", Kind: policy.KindShell, Command: "mytool run test -- --watch", Cwd: "/work/ws"}, // the card's own
	}
	past := h.s.Past[:3]
	h.openCard(shellPrompt("mytool run test -- --watch", "mytool", "run", "test", "--", "--watch"))
	h.send(keyMsg("r"))
	h.send(pastMsg(h.s.PastRequests()))
	h.press("down", "down", "down", "down")
	s := h.screen()
	contains(t, s, "▸ starting with: mytool run …")
	contains(t, s, "would have covered 2 of 3 earlier requests")
	contains(t, s, "mytool run lint")
	notContains(t, s, "mytool run deploy")

	spec := approvals.GrantSpec{Scope: approvals.ScopeRun, Match: approvals.Match{Prefix: []string{"mytool", "run"}}}
	// the old source of truth, an engine of the TUI's own, disagrees
	own := approvals.Preview(spec, past, policy.Context{Workspace: "/work/ws", Cwd: "/work/ws"}, policy.Default())
	if len(own) != 3 {
		t.Fatalf("a preview from the built-in rules alone covered %d of 3; the test needs it to count the denied deploy", len(own))
	}
	// the broker, with the grant remembered, allows exactly what the preview showed
	if _, err := set.Add(spec, approvals.Origin{Run: "r-test"}); err != nil {
		t.Fatal(err)
	}
	shown := b.Preview(spec, past)
	for _, r := range past {
		d := b.Decide(context.Background(), r)
		byGrant := d.Allowed() && strings.HasPrefix(d.By, "template:")
		inPreview := slices.ContainsFunc(shown, func(x approvals.Request) bool { return x.Command == r.Command })
		if byGrant != inPreview {
			t.Errorf("%q: the broker decided %s by %s, the preview showed it: %v", r.Command, d.Outcome, d.By, inPreview)
		}
	}
}

// A view with no run (no chain to ask) shows no preview rather than one
// from an engine of its own.
func TestRememberPreviewWithoutAChainSaysSo(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.s.Past = []approvals.Request{{Kind: policy.KindShell, Command: "mytool run lint"}}
	h.openCard(shellPrompt("mytool run test", "mytool", "run", "test"))
	h.send(keyMsg("r"))
	h.send(pastMsg(h.s.PastRequests()))
	s := h.screen()
	contains(t, s, "no preview: this view has no run's approval chain to ask")
	notContains(t, s, "would have covered")
}
