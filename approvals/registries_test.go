package approvals

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

// The preset table parses, names the registries the issue lists, and every
// host is an exact host in one registry only.
func TestRegistryPresetTable(t *testing.T) {
	want := map[string][]string{
		"go":     {"proxy.golang.org", "sum.golang.org"},
		"npm":    {"registry.npmjs.org"},
		"python": {"pypi.org", "files.pythonhosted.org"},
		"rust":   {"crates.io", "static.crates.io", "index.crates.io"},
	}
	got := map[string][]string{}
	for _, r := range Registries() {
		got[r.Name] = r.Hosts
	}
	for name, hosts := range want {
		if !slices.Equal(got[name], hosts) {
			t.Errorf("registry %s = %v, want %v", name, got[name], hosts)
		}
	}
	for _, bad := range []string{
		"[[registry]]\nname = \"x\"\nlabel = \"x\"\nhosts = [\"*.example.com\"]\n",
		"[[registry]]\nname = \"x\"\nlabel = \"x\"\nhosts = [\"a.example:8080\"]\n",
		"[[registry]]\nname = \"x\"\nlabel = \"x\"\nhosts = [\"a.example\"]\n[[registry]]\nname = \"y\"\nlabel = \"y\"\nhosts = [\"a.example\"]\n",
		"[[registry]]\nname = \"x\"\nlabel = \"x\"\nhosts = [\"a.example\"]\nmirror = \"b\"\n",
		"[[registry]]\nname = \"x\"\nhosts = [\"a.example\"]\n",
	} {
		if _, err := parseRegistries(bad); err == nil {
			t.Errorf("accepted a bad table:\n%s", bad)
		}
	}
	if r, ok := RegistryFor("Sum.Golang.org."); !ok || r.Name != "go" {
		t.Errorf("RegistryFor(sum.golang.org) = %v, %v", r, ok)
	}
	if _, ok := RegistryFor("golang.org"); ok {
		t.Error("a host outside every preset has one")
	}
}

// Remembering a registry preset remembers one host template per registry
// host; a new host is asked of a person only, so they are kept for the run
// and never reach the project's template file (#37 F1). A grant whose extra
// hosts are not the request's registry is not remembered at all.
func TestRememberingARegistryPresetStoresEachHost(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "templates.toml")
	ts, err := LoadTemplates(proj, "")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443, Adapter: "proxy"}
	_, m, also, ok := RegistryGrant(req)
	if !ok {
		t.Fatal("no preset for proxy.golang.org")
	}
	decider := DeciderFunc(func(_ context.Context, p *Prompt) Decision {
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test",
			Grant: &GrantSpec{Scope: ScopeProject, Match: m, Also: also}}
	})
	r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(), Templates: ts})
	if d := ask(t, r.socket, req); !d.Allowed() {
		t.Fatalf("decision %+v", d)
	}
	src, _ := os.ReadFile(proj)
	for _, h := range []string{"proxy.golang.org", "sum.golang.org"} {
		if strings.Contains(string(src), h) {
			t.Errorf("the project file remembers %s, a host only a person may approve:\n%s", h, src)
		}
	}
	// sum.golang.org is now remembered for the run: no one is asked.
	if d := ask(t, r.socket, Request{Kind: policy.KindNet, Host: "sum.golang.org", Port: 443}); !d.Allowed() || !strings.HasPrefix(d.By, "template") {
		t.Errorf("the preset's second host was not remembered: %+v", d)
	}

	// A grant that smuggles another host along is refused whole.
	proj2 := filepath.Join(t.TempDir(), "templates.toml")
	ts2, _ := LoadTemplates(proj2, "")
	sneaky := DeciderFunc(func(_ context.Context, p *Prompt) Decision {
		return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test",
			Grant: &GrantSpec{Scope: ScopeProject, Match: m, Also: []Match{{Host: "evil.example"}}}}
	})
	r3 := startBroker(t, BrokerConfig{Decider: sneaky, Policy: policy.Default(), Templates: ts2})
	ask(t, r3.socket, req)
	if src, _ := os.ReadFile(proj2); strings.Contains(string(src), "evil.example") || strings.Contains(string(src), "proxy.golang.org") {
		t.Errorf("a grant with a host outside the preset was remembered:\n%s", src)
	}
}
