package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// brokerFor starts the approval chain a run in place at root would use,
// with nobody to ask: what it allows, its files allow.
func brokerFor(t *testing.T, p *Project) (*approvals.Broker, []journal.Event) {
	t.Helper()
	r := startContainment(t, p, nil)
	r.journal.Sync()
	evs, _ := journal.ReadFile(r.journal.Path())
	return r.broker, evs
}

// startContainment is the containment of a run in place at p, its broker
// started, asking person (nil: nobody).
func startContainment(t *testing.T, p *Project, person *approvals.PersonQueue) *containment {
	t.Helper()
	dir, err := os.MkdirTemp("", "pt") // short: the broker's socket lives here
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	j, err := journal.Open(filepath.Join(dir, "events.jsonl"), "r-t")
	if err != nil {
		t.Fatal(err)
	}
	timeout := 5 * time.Second
	if person != nil {
		timeout = time.Minute
	}
	r := &containment{runCore: &runCore{opts: Options{Project: p, InPlace: true, Approval: ApprovalOptions{Person: person, Timeout: timeout}},
		id: "r-t", dir: dir, ws: &Workspace{Dir: p.Root}, journal: j, adapter: &commandAdapter{argv: []string{"true"}}}}
	if err := r.startBroker(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.broker.Close(); j.Close() })
	return r
}

// A place that is not a git repository ships a .sentinel/templates.toml
// remembering a host and a policy.toml allowing a command: a run there
// uses neither, and says how to trust them, until the person trusts
// those exact bytes; a change withdraws it.
func TestUntrustedPlaceStateIsIgnored(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	tpl := filepath.Join(root, ".sentinel", "templates.toml")
	if err := os.MkdirAll(filepath.Dir(tpl), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(tpl, []byte("[[template]]\nid = \"t-shipped\"\nhost = \"exfil.example\"\n"), 0o600)
	os.WriteFile(filepath.Join(root, ".sentinel", "policy.toml"), []byte(
		"[[rule]]\nid = \"shipped-frob\"\ndecision = \"allow\"\nargv = [\"frob\"]\n"), 0o600)
	p := &Project{Root: root}
	host := approvals.Request{Kind: policy.KindNet, Host: "exfil.example", Port: 443}
	frob := approvals.Request{Kind: policy.KindShell, Command: "frob x"}

	b, evs := brokerFor(t, p)
	if d := b.Decide(context.Background(), host); d.Allowed() {
		t.Fatalf("a shipped template allowed a host before trust: %+v", d)
	}
	if d := b.Decide(context.Background(), frob); d.Allowed() {
		t.Fatalf("a shipped policy rule allowed a command before trust: %+v", d)
	}
	var said int
	for _, ev := range evs {
		if strings.Contains(ev.Text, "is not trusted") && strings.Contains(ev.Text, "sentinel config trust --project") {
			said++
		}
	}
	if said != 2 {
		t.Errorf("want one line each for templates.toml and policy.toml saying how to trust them, got %d in %v", said, evs)
	}

	for _, name := range []string{"templates.toml", "policy.toml"} {
		sum, _, _ := config.HashFile(config.StateFilePath(root, name))
		if err := config.TrustFile(root, name, sum); err != nil {
			t.Fatal(err)
		}
	}
	b, _ = brokerFor(t, p)
	if d := b.Decide(context.Background(), host); !d.Allowed() || !strings.HasPrefix(d.By, "template:") {
		t.Fatalf("trusted, the template should allow: %+v", d)
	}
	if d := b.Decide(context.Background(), frob); !d.Allowed() {
		t.Fatalf("trusted, the policy rule should allow: %+v", d)
	}

	os.WriteFile(tpl, []byte("[[template]]\nid = \"t-shipped\"\nhost = \"exfil.example\"\n\n"), 0o600)
	b, _ = brokerFor(t, p)
	if d := b.Decide(context.Background(), host); d.Allowed() {
		t.Fatalf("a changed file kept its trust: %+v", d)
	}
}

// What Sentinel itself remembers into a place's templates stays trusted.
func TestPlaceTemplatesSentinelWritesStayTrusted(t *testing.T) {
	t.Parallel()

	p := &Project{Root: t.TempDir()}
	os.MkdirAll(filepath.Join(p.Root, ".sentinel"), 0o700)
	b, _ := brokerFor(t, p)
	if _, err := b.Templates().Add(approvals.GrantSpec{Scope: approvals.ScopeProject, Match: approvals.Match{Host: "ok.example"}}, approvals.Origin{Run: "r-t"}); err != nil {
		t.Fatal(err)
	}
	if path, warning := placeStateFile(p, "templates.toml"); path == "" {
		t.Fatalf("Sentinel's own write made the file untrusted: %s", warning)
	}
}
