package approvals

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A template's name says what it matches, how, and where it holds.
func TestTemplateNamesSayWhatTheyMatch(t *testing.T) {
	for _, c := range []struct {
		m     Match
		scope Scope
		want  string
	}{
		{Match{Prefix: []string{"go", "test"}}, ScopeProject, "go test (any args) in this project"},
		{Match{Exact: []string{"go", "test", "./..."}}, ScopeRun, "go test ./... (exactly) in this run"},
		{Match{Path: "src/**/*.go"}, ScopeUser, "writing src/**/*.go in all your projects"},
		{Match{Host: "registry.npmjs.org"}, ScopeProject, "connecting to registry.npmjs.org in this project"},
		{Match{Exact: []string{"echo", "a b"}}, ScopeRun, "echo 'a b' (exactly) in this run"},
		{Match{Prefix: []string{"x", strings.Repeat("y", 100)}}, ScopeRun, "x " + strings.Repeat("y", 57) + "… (any args) in this run"},
	} {
		if got := TemplateName(c.m, c.scope); got != c.want {
			t.Errorf("TemplateName(%v, %s) = %q, want %q", c.m, c.scope, got, c.want)
		}
	}
}

// The journal names a template where it is made and where it is reused,
// with its id beside the name.
func TestTheJournalNamesTemplates(t *testing.T) {
	set := NewTemplateSet()
	tpl, err := set.Add(GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{"frobnicate"}}}, Origin{Run: "r"})
	if err != nil {
		t.Fatal(err)
	}
	r := startBroker(t, BrokerConfig{Policy: policy.Default(), Templates: set})
	d, _ := AskOnce(context.Background(), r.socket, Request{Kind: policy.KindShell, Command: unknownShell})
	want := "reused template “frobnicate (any args) in this run” (" + tpl.ID + ")"
	if !d.Allowed() || d.Reason != want {
		t.Fatalf("decision %+v, want allowed with reason %q", d, want)
	}
	evs := r.events(t)
	found := false
	for _, e := range evs {
		found = found || (e.Kind == KindDecision && strings.Contains(e.Text, want))
	}
	if !found {
		t.Fatalf("no decision line says %q: %+v", want, evs)
	}
}
