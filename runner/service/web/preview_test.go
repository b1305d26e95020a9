package web

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
)

// kubectlPreviews are the remember options' previews for a kubectl card in
// project root, over three earlier requests.
func kubectlPreviews(t *testing.T, root string) map[string]int {
	t.Helper()
	e := queue.Entry{ID: "1", Run: "r", Project: root, Request: shell("kubectl get pods -A"), Verdict: askVerdict}
	c := cardOf(e, time.Now())
	ps := newProjects()
	ps.past[root] = []approvals.Request{shell("kubectl get pods -A"), shell("kubectl get pods --context=staging"), shell("ls")}
	previewsOf(&c, e, ps)
	got := map[string]int{}
	for _, o := range c.Options {
		got[o.Label.String()] = o.Preview.Covered
		if o.Preview.Earlier != 3 {
			t.Fatalf("%s: %d earlier, want 3", o.Label, o.Preview.Earlier)
		}
	}
	return got
}

// The page previews a breadth as the TUI's chooser does: approvals.Preview
// over the project's earlier requests (ones the policy still asks: kubectl).
func TestRememberPreviewCountsEarlierRequests(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	got := kubectlPreviews(t, t.TempDir())
	if got["exactly: kubectl get pods -A"] != 1 || got["starting with: kubectl get pods ..."] != 2 {
		t.Fatalf("previews: %v", got)
	}
}

// The preview judges by the rules the project's runs judge by, not the
// built-in ones alone: an earlier request the person's own rule allows is
// not one a remembered breadth would cover.
func TestRememberPreviewUsesThePersonsRules(t *testing.T) {
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	if err := os.MkdirAll(filepath.Join(cfg, "sentinel"), 0o700); err != nil {
		t.Fatal(err)
	}
	rule := "[[rule]]\nid = \"web-pods\"\ndecision = \"allow\"\nargv = [\"kubectl\", \"get\", \"pods\", \"--context=staging\"]\n"
	if err := os.WriteFile(filepath.Join(cfg, "sentinel", "policy.toml"), []byte(rule), 0o600); err != nil {
		t.Fatal(err)
	}
	got := kubectlPreviews(t, t.TempDir())
	if got["starting with: kubectl get pods ..."] != 1 {
		t.Fatalf("previews: %v, want the breadth to cover only the request the person's rule does not allow", got)
	}
}
