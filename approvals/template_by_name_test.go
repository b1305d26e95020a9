package approvals

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// A template's decision carries the template's name for the records, and
// its journal line reads as words, not as "(template:t-…)" with the name
// after (the web page's run lines and the TUI's approval lane show it).
func TestATemplateDecisionCarriesItsName(t *testing.T) {
	set := NewTemplateSet()
	tpl, err := set.Add(GrantSpec{Scope: ScopeRun, Match: Match{Prefix: []string{"frobnicate"}}}, Origin{Run: "r"})
	if err != nil {
		t.Fatal(err)
	}
	r := startBroker(t, BrokerConfig{Policy: policy.Default(), Templates: set})
	d, _ := AskOnce(context.Background(), r.socket, Request{Kind: policy.KindShell, Command: unknownShell})
	name := "frobnicate (any args) in this run"
	if !d.Allowed() || d.By != "template:"+tpl.ID {
		t.Fatalf("decision %+v, want allowed by template:%s", d, tpl.ID)
	}
	found := false
	for _, e := range r.events(t) {
		if e.Kind != KindDecision {
			continue
		}
		var j Decision
		if err := json.Unmarshal(e.Data, &j); err != nil || len(j.TemplateNames) != 1 || j.TemplateNames[0] != name {
			t.Errorf("journaled decision %s (%v): want template_names [%q]", e.Data, err, name)
		}
		found = true
		if strings.Contains(e.Text, "template:") || !strings.Contains(e.Text, "“"+name+"” ("+tpl.ID+")") {
			t.Errorf("decision line %q: want the name with the id, not the raw By", e.Text)
		}
	}
	if !found {
		t.Fatal("no decision was journaled")
	}
}
