package supervisor

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestCompletionReview(t *testing.T) {
	ret := `{"verdict":"return","reason":"the endpoint has no test","missing":["a test for GET /health"]}`
	cases := []struct {
		name       string
		content    string
		status     int
		accepted   bool
		wantErr    bool
		steerHas   string
		reasonHave string
	}{
		{name: "accept", content: `{"verdict":"accept","reason":"does what was asked","missing":[]}`, accepted: true},
		{name: "return", content: ret, steerHas: "Still missing: a test for GET /health."},
		{name: "garbage", content: "LGTM!", wantErr: true, reasonHave: "could not review"},
		{name: "500", status: 500, wantErr: true, reasonHave: "could not review"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, err := fakeopenai.Start(fakeopenai.Reply{Content: c.content, Status: c.status})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			b, _ := New(Config{Backend: KindOpenAI, BaseURL: srv.URL, Model: "m"})
			s := NewSupervisor(Options{Backend: b, Task: "add a health endpoint"})
			s.Observe(journal.Event{Lane: journal.Tool, Kind: "verify", Text: "verify: go test ./... → passed in 2s"})
			s.Observe(journal.Event{Lane: journal.Coder, Kind: KindSteer, Text: "Sentinel supervisor: `go test ./... || true` hides the exit status"})
			r, err := s.Review(context.Background(), ReviewInput{Summary: "Added /health.", Diffstat: "server.go | 12 ++++",
				Patch:  []byte("diff --git a/server.go b/server.go\n--- a/server.go\n+++ b/server.go\n@@ -1 +1,2 @@\n+func health() {}\n"),
				Ledger: "- go vet ./... → exit 1 (1s)\n    | server.go:3: unreachable code\n"})
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if r.Accepted() != c.accepted {
				t.Fatalf("accepted = %v, want %v (%+v)", r.Accepted(), c.accepted, r)
			}
			if c.steerHas != "" && !strings.Contains(r.SteerText(), c.steerHas) {
				t.Errorf("steer text %q lacks %q", r.SteerText(), c.steerHas)
			}
			if c.reasonHave != "" && !strings.Contains(r.Reason, c.reasonHave) {
				t.Errorf("reason %q lacks %q", r.Reason, c.reasonHave)
			}
			sent := srv.Requests()[0].UserText()
			for _, want := range []string{"add a health endpoint", "Added /health.", "server.go | 12", "go test ./... → passed",
				"+func health() {}", "go vet ./... → exit 1", "unreachable code", "STEERING SENT TO THE CODER", "hides the exit status"} {
				if !strings.Contains(sent, want) {
					t.Errorf("the review prompt lacks %q", want)
				}
			}
		})
	}
}

func TestCompletionReviewAnthropic(t *testing.T) {
	srv, err := fakemodel.Start(fakemodel.Script{fakemodel.Reply(fakemodel.ToolUse("review",
		map[string]any{"verdict": "return", "reason": "tests were skipped", "missing": []string{"un-skip TestHealth"}}))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, _ := New(Config{Backend: KindAnthropic, BaseURL: srv.URL, Model: "m"}.WithAPIKey("k"))
	r, err := NewSupervisor(Options{Backend: b}).Review(context.Background(), ReviewInput{})
	if err != nil || r.Accepted() || r.Missing[0] != "un-skip TestHealth" {
		t.Fatalf("review %+v, %v", r, err)
	}
}
