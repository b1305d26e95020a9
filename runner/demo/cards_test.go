package demo

import (
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// defaultCards is what the built-in scenario promises for each step that asks
// the broker: the decision the real policy engine gives (Ask is a card for
// the person). The coder's words in default.toml say which steps show a
// card; if the policy changes so that one no longer asks, this fails.
var defaultCards = map[string]policy.Decision{
	"look":       policy.Allow,
	"read":       policy.Allow,
	"lint":       policy.Allow, // "the policy allows it without a card"
	"peek":       policy.Ask,   // the command card
	"risky":      policy.Deny,
	"shout":      policy.Allow,
	"edit":       policy.Allow,
	"ci":         policy.Ask, // the write card: a file that runs later
	"peek-again": policy.Ask, // a card unless remembered
	"docs":       policy.Ask, // the host card
	"test":       policy.Allow,
}

func TestDefaultScenarioStepsGetTheCardsTheCoderPromises(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir(), Sandboxed: true}
	kinds := map[policy.Kind]bool{}
	for _, st := range s.Steps {
		var q policy.Query
		switch {
		case st.Shell != "":
			q = policy.Query{Kind: policy.KindShell, Command: st.Shell}
		case st.Write != "":
			q = policy.Query{Kind: policy.KindWrite, Path: filepath.Join(ws, st.Write)}
		case st.Edit != "":
			q = policy.Query{Kind: policy.KindEdit, Path: filepath.Join(ws, st.Edit)}
		case st.Net != "":
			h, p := netTarget(st.Net)
			q = policy.Query{Kind: policy.KindNet, Host: h, Port: p, URL: "https://" + h + "/"}
		default:
			continue
		}
		want, ok := defaultCards[st.ID]
		if !ok {
			t.Errorf("step %q asks the broker but defaultCards says nothing about it", st.ID)
			continue
		}
		q.Context = ctx
		v := policy.Default().Check(q)
		if v.Decision != want {
			t.Errorf("step %q: policy says %s (%s: %s), the scenario promises %s", st.ID, v.Decision, v.Rule, v.Reason, want)
		}
		if v.Decision == policy.Ask {
			kinds[q.Kind] = true
		}
	}
	for _, k := range []policy.Kind{policy.KindShell, policy.KindWrite, policy.KindNet} {
		if !kinds[k] {
			t.Errorf("no step of the default scenario shows a %s card", k)
		}
	}
}

// TestDefaultScenarioRememberedCommandIsCoveredTheSecondTime: the coder says
// remembering the first peek card answers the second one; the grant the card
// offers must cover the repeated command.
func TestDefaultScenarioRememberedCommandIsCoveredTheSecondTime(t *testing.T) {
	s, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	var first, again string
	for _, st := range s.Steps {
		switch st.ID {
		case "peek":
			first = st.Shell
		case "peek-again":
			again = st.Shell
		}
	}
	ws := t.TempDir()
	ctx := policy.Context{Workspace: ws, Cwd: ws, Home: t.TempDir(), Sandboxed: true}
	req := approvals.Request{Kind: policy.KindShell, Command: first, Cwd: ws}
	v := policy.Default().Check(policy.Query{Kind: policy.KindShell, Command: first, Context: ctx})
	sugg := approvals.SuggestGrantsIn(req, v, ws)
	if len(sugg) == 0 {
		t.Fatalf("the card for %q offers nothing to remember", first)
	}
	set := approvals.NewTemplateSet()
	if _, err := set.Add(approvals.GrantSpec{Scope: approvals.ScopeRun, Match: sugg[0]}, approvals.Origin{}); err != nil {
		t.Fatal(err)
	}
	req2 := approvals.Request{Kind: policy.KindShell, Command: again, Cwd: ws}
	v2 := policy.Default().Check(policy.Query{Kind: policy.KindShell, Command: again, Context: ctx})
	if _, ok := set.Covering(req2, v2, ctx); !ok {
		t.Fatalf("remembering %q (%+v) does not cover %q", first, sugg[0], again)
	}
}
