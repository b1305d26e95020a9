package supervisor

import (
	"context"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// relayShapes start a fake server of each API shape that answers one relay
// turn with content (a JSON object as text), or with an HTTP status.
var relayShapes = []struct {
	name  string
	start func(t *testing.T, content string, status int) (Backend, func() []string)
}{
	{"anthropic", func(t *testing.T, content string, status int) (Backend, func() []string) {
		var turn fakemodel.Turn
		switch {
		case status != 0:
			turn = fakemodel.Fail(status)
		case strings.HasPrefix(content, "{"):
			turn = fakemodel.Reply(fakemodel.ToolUse("relay", rawJSON(content)))
		default:
			turn = fakemodel.Reply(fakemodel.Text(content))
		}
		srv, err := fakemodel.Start(fakemodel.Script{turn, turn})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		b, _ := New(Config{Backend: KindAnthropic, BaseURL: srv.URL, Model: "claude-fake"}.WithAPIKey("k"))
		return b, func() (out []string) {
			for _, r := range srv.Requests() {
				out = append(out, r.System+"\n"+r.UserText())
			}
			return out
		}
	}},
	{"openai", func(t *testing.T, content string, status int) (Backend, func() []string) {
		r := fakeopenai.Reply{Content: content, Status: status}
		srv, err := fakeopenai.Start(r, r)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		b, _ := New(Config{Backend: KindOpenAI, BaseURL: srv.URL, Model: "gpt-fake"})
		return b, func() (out []string) {
			for _, r := range srv.Requests() {
				out = append(out, r.SystemText()+"\n"+r.UserText())
			}
			return out
		}
	}},
}

func TestRelayDecidesWhatTheCoderIsTold(t *testing.T) {
	cases := []struct {
		name             string
		content          string
		status           int
		wantErr          bool
		toCoder, toHuman string
		standing         string
	}{
		{name: "rule", content: `{"to_coder":"The person says: add no new dependencies;\nuse the standard library for the HTTP client.","to_person":"","standing_decision":"No new dependencies.","reason":"a lasting rule"}`,
			toCoder: "The person says: add no new dependencies; use the standard library for the HTTP client.", standing: "No new dependencies."},
		{name: "question", content: `{"to_coder":"","to_person":"It is fixing the parser; 2 of 3 tests pass.","standing_decision":"","reason":"a question"}`,
			toHuman: "It is fixing the parser; 2 of 3 tests pass."},
		{name: "swallowed", content: `{"to_coder":"","to_person":"","standing_decision":"","reason":"nothing to do"}`, wantErr: true},
		{name: "garbage", content: "sure, I'll tell it", wantErr: true},
		{name: "500", status: 500, wantErr: true},
	}
	for _, sh := range relayShapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				b, sent := sh.start(t, c.content, c.status)
				j, read := openJournal(t)
				s := NewSupervisor(Options{Backend: b, Task: "add a retrying HTTP client", Journal: j})
				s.Observe(journal.Event{Lane: journal.Tool, Kind: "exec", Text: "$ go get github.com/hashicorp/go-retryablehttp"})
				r, err := s.Relay(context.Background(), "no new deps please")
				if (err != nil) != c.wantErr {
					t.Fatalf("err = %v, want error %v (%+v)", err, c.wantErr, r)
				}
				if r.ToCoder != c.toCoder || r.ToPerson != c.toHuman {
					t.Errorf("relay = %+v, want to_coder %q, to_person %q", r, c.toCoder, c.toHuman)
				}
				if got := strings.Join(s.Standing(), "|"); got != c.standing {
					t.Errorf("standing decisions = %q, want %q", got, c.standing)
				}
				reqs := sent()
				if len(reqs) == 0 {
					t.Fatal("no request reached the model")
				}
				for _, want := range []string{"add a retrying HTTP client", "no new deps please", "go-retryablehttp", "Decide what the coder should be told"} {
					if !strings.Contains(reqs[0], want) {
						t.Errorf("the relay prompt lacks %q", want)
					}
				}
				var journaled bool
				for _, ev := range read() {
					var rec TurnRecord
					if ev.Lane == journal.Supervisor && ev.Decode(&rec) == nil && rec.Role == "relay" {
						journaled = true
					}
				}
				if !journaled {
					t.Error("the relay turn is not on the supervisor lane")
				}
			})
		}
	}
}

// A rule the person set binds the judge from then on: it is in every later
// judge prompt.
func TestStandingDecisionReachesTheJudge(t *testing.T) {
	srv, err := fakeopenai.Start(
		fakeopenai.Reply{Content: `{"to_coder":"No new dependencies, please.","to_person":"","standing_decision":"Add no new dependencies.","reason":"rule"}`},
		fakeopenai.Reply{Content: `{"decision":"deny","reason":"the person said no new dependencies","risk":"low"}`},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, _ := New(Config{Backend: KindOpenAI, BaseURL: srv.URL, Model: "m"})
	s := NewSupervisor(Options{Backend: b, Task: "add a retrying HTTP client"})
	if _, err := s.Relay(context.Background(), "no new deps"); err != nil {
		t.Fatal(err)
	}
	d := decide(t, s, shellPrompt("npm install axios"))
	if d.Allowed() {
		t.Fatalf("decision %+v, want deny", d)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].UserText(), "From the person (these override everything else):\n- Add no new dependencies.") {
		t.Fatalf("the judge prompt does not carry the person's standing decision")
	}
}

// rawJSON is a JSON text a fake model sends as a tool's input unchanged.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r), nil }
