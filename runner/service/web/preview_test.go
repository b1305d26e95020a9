package web

import (
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
)

// The page previews a breadth as the TUI's chooser does: approvals.Preview
// over the project's earlier requests (ones the policy still asks: kubectl).
func TestRememberPreviewCountsEarlierRequests(t *testing.T) {
	e := queue.Entry{ID: "1", Run: "r", Project: "/src/p", Request: shell("kubectl get pods -A"), Verdict: askVerdict}
	c := cardOf(e, time.Now())
	past := map[string][]approvals.Request{"/src/p": {shell("kubectl get pods -A"), shell("kubectl get pods -n web"), shell("ls")}}
	previewsOf(&c, e, past)
	got := map[string]int{}
	for _, o := range c.Options {
		got[o.Label.String()] = o.Preview.Covered
		if o.Preview.Earlier != 3 {
			t.Fatalf("%s: %d earlier, want 3", o.Label, o.Preview.Earlier)
		}
	}
	if got["exactly: kubectl get pods -A"] != 1 || got["starting with: kubectl get pods ..."] != 2 {
		t.Fatalf("previews: %v", got)
	}
}
