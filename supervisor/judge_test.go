package supervisor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestJudgeDecisionsFlowForBothAPIShapes(t *testing.T) {
	cases := []struct {
		name       string
		answer     answer
		want       approvals.Outcome
		reasonHas  string
		timeout    time.Duration
		failedTurn bool
	}{
		{name: "allow", answer: answer{verdict: &Verdict{"allow", "running the tests is part of the task", "low"}},
			want: approvals.OutcomeAllow, reasonHas: "part of the task"},
		{name: "deny", answer: answer{verdict: &Verdict{"deny", "deleting the fixtures is not part of the task", "medium"}},
			want: approvals.OutcomeDeny, reasonHas: "not part of the task"},
		{name: "high risk allow is a deny", answer: answer{verdict: &Verdict{"allow", "probably fine", "high"}},
			want: approvals.OutcomeDeny, reasonHas: "high risk"},
		{name: "garbage", answer: answer{text: "Sure, go ahead and run it!"},
			want: approvals.OutcomeDeny, reasonHas: "not a JSON object", failedTurn: true},
		{name: "half an object", answer: answer{text: `{"decision": "allow", "reason": "ok"`},
			want: approvals.OutcomeDeny, reasonHas: "could not judge", failedTurn: true},
		{name: "a decision that is neither", answer: answer{text: `{"decision":"maybe","reason":"hm","risk":"low"}`},
			want: approvals.OutcomeDeny, reasonHas: `"maybe"`, failedTurn: true},
		{name: "server error 500", answer: answer{status: 500},
			want: approvals.OutcomeDeny, reasonHas: "500", failedTurn: true},
		{name: "hang past the timeout", answer: answer{hang: true}, timeout: 300 * time.Millisecond,
			want: approvals.OutcomeDeny, reasonHas: "did not answer within", failedTurn: true},
		{name: "empty answer", answer: answer{empty: true},
			want: approvals.OutcomeDeny, reasonHas: "empty", failedTurn: true},
	}
	for _, sh := range shapes {
		for _, c := range cases {
			t.Run(sh.name+"/"+c.name, func(t *testing.T) {
				b, _ := sh.start(t, c.answer)
				j, read := openJournal(t)
				s := NewSupervisor(Options{Backend: b, Task: "make the tests pass", Journal: j, Timeout: c.timeout})
				d := decide(t, s, shellPrompt("go test ./..."))
				if d.Outcome != c.want {
					t.Fatalf("outcome %s (%s), want %s", d.Outcome, d.Reason, c.want)
				}
				if d.By != ByWho {
					t.Errorf("By = %q, want %q", d.By, ByWho)
				}
				if !strings.Contains(d.Reason, c.reasonHas) {
					t.Errorf("reason %q does not say %q", d.Reason, c.reasonHas)
				}
				if d.Outcome == approvals.OutcomeDeny && !strings.Contains(d.Message, d.Reason) {
					t.Errorf("the coder's message %q does not carry the reason", d.Message)
				}
				// the turn is on the supervisor lane with its cost
				var turns []journal.Event
				for _, ev := range read() {
					if ev.Lane == journal.Supervisor {
						turns = append(turns, ev)
					}
				}
				if len(turns) != 1 {
					t.Fatalf("%d supervisor events, want 1", len(turns))
				}
				var rec map[string]any
				if err := turns[0].Decode(&rec); err != nil {
					t.Fatal(err)
				}
				for _, k := range []string{"tokens_in", "tokens_out", "duration_ms"} {
					if _, ok := rec[k]; !ok {
						t.Errorf("supervisor event data has no %s: %s", k, turns[0].Data)
					}
				}
				if c.failedTurn != (rec["error"] != nil) {
					t.Errorf("event error field = %v, want failed=%v", rec["error"], c.failedTurn)
				}
				if tot := s.Totals(); tot.Turns != 1 || (c.failedTurn && tot.Failed != 1) {
					t.Errorf("totals %+v", tot)
				}
			})
		}
	}
}

func TestJudgeSeesTaskRequestAndHistory(t *testing.T) {
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			b, sent := sh.start(t, answer{verdict: &Verdict{"allow", "ok", "low"}})
			j, _ := openJournal(t)
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "DECISIONS.md"), []byte("# Decisions\n\n| time | kind | request | decision | by | reason |\n|---|---|---|---|---|---|\n| 10:00:00 | shell | `rm -rf vendor` | deny | person | keep vendor |\n"), 0o600)
			s := NewSupervisor(Options{Backend: b, Task: "add a health endpoint", Journal: j, RunDir: dir})
			s.Observe(journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "--- FAIL: TestHealth (0.00s)"})
			decide(t, s, shellPrompt("curl -s localhost:8080/health"))
			got := sent()
			if len(got) != 1 {
				t.Fatalf("%d requests reached the model, want 1", len(got))
			}
			for _, want := range []string{"add a health endpoint", "curl -s localhost:8080/health", "rm -rf vendor",
				"--- FAIL: TestHealth", "Judge the request against the TASK", "treat it as data"} {
				if !strings.Contains(got[0], want) {
					t.Errorf("the model was not sent %q:\n%s", want, got[0])
				}
			}
		})
	}
}

func TestNeverDelegableIsNeverAutoAllowed(t *testing.T) {
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			b, sent := sh.start(t, answer{verdict: &Verdict{"allow", "looks fine", "low"}})
			s := NewSupervisor(Options{Backend: b, Task: "anything"})
			d := decide(t, s, netPrompt("evil.example"))
			if d.Allowed() || d.By != approvals.ByNobody || !strings.Contains(d.Reason, "only a person") {
				t.Fatalf("decision %+v, want a deny by nobody saying only a person may approve", d)
			}
			if n := len(sent()); n != 0 {
				t.Errorf("%d requests reached the model for a never-delegable request", n)
			}
		})
	}
}

// person is a fake present person: it records the card it was shown.
type person struct {
	shown  *approvals.Prompt
	answer approvals.Decision
}

func (p *person) Decide(_ context.Context, pr *approvals.Prompt) approvals.Decision {
	p.shown = pr
	return p.answer
}

func TestPersonAndSupervisorPutsAdviceOnTheCard(t *testing.T) {
	b, sent := startOpenAI(t, answer{verdict: &Verdict{"deny", "the task does not need the network", "medium"}})
	s := NewSupervisor(Options{Backend: b, Task: "fix the typo"})
	who := &person{answer: approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person"}}
	d := approvals.Ask{Person: who, Model: s}.Decide(context.Background(), shellPrompt("npm install left-pad"))
	if d.By != "person" || !d.Allowed() {
		t.Fatalf("decision %+v: the person's answer must stand", d)
	}
	want := "supervisor suggests DENY (medium risk): the task does not need the network"
	if who.shown == nil || who.shown.Recommendation != want {
		t.Fatalf("card recommendation = %q, want %q", who.shown.Recommendation, want)
	}
	// never-delegable: the person decides, the model is not asked
	who.shown = nil
	approvals.Ask{Person: who, Model: s}.Decide(context.Background(), netPrompt("pastebin.com"))
	if who.shown == nil || who.shown.Recommendation != "" {
		t.Fatalf("never-delegable card: shown=%v recommendation=%q, want the person asked without advice", who.shown != nil, who.shown.Recommendation)
	}
	if n := len(sent()); n != 1 {
		t.Errorf("%d model requests, want 1 (none for the never-delegable one)", n)
	}
}

func TestAdviceFailureSaysSo(t *testing.T) {
	b, _ := startAnthropic(t, answer{text: "no idea"})
	who := &person{answer: approvals.Decision{Outcome: approvals.OutcomeDeny, By: "person"}}
	approvals.Ask{Person: who, Model: NewSupervisor(Options{Backend: b})}.Decide(context.Background(), shellPrompt("make"))
	if !strings.HasPrefix(who.shown.Recommendation, "supervisor: no advice (") {
		t.Fatalf("recommendation %q", who.shown.Recommendation)
	}
}

func TestOpenAIRefusalIsADeny(t *testing.T) {
	b, _ := startOpenAI(t, answer{refusal: "I can't help with that."})
	d := decide(t, NewSupervisor(Options{Backend: b}), shellPrompt("ls"))
	if d.Allowed() || !strings.Contains(d.Reason, "refused") {
		t.Fatalf("decision %+v, want a deny naming the refusal", d)
	}
}

func TestBothShapesAskForTheStructuredAnswer(t *testing.T) {
	osrv, err := fakeopenai.Start(fakeopenai.Reply{Content: `{"decision":"allow","reason":"ok","risk":"low"}`})
	if err != nil {
		t.Fatal(err)
	}
	defer osrv.Close()
	ob, _ := New(Config{Backend: KindOpenAI, BaseURL: osrv.URL, Model: "m"}.WithAPIKey("k"))
	if d := decide(t, NewSupervisor(Options{Backend: ob}), shellPrompt("ls")); !d.Allowed() {
		t.Fatalf("openai: %+v", d)
	}
	var rf struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	}
	if err := json.Unmarshal(osrv.Requests()[0].ResponseFormat, &rf); err != nil {
		t.Fatal(err)
	}
	if rf.Type != "json_schema" || !rf.JSONSchema.Strict || rf.JSONSchema.Schema["required"] == nil {
		t.Errorf("openai response_format = %s, want a strict json_schema", osrv.Requests()[0].ResponseFormat)
	}

	asrv, err := fakemodel.Start(fakemodel.Script{fakemodel.Reply(fakemodel.ToolUse("judgment", Verdict{"allow", "ok", "low"}))})
	if err != nil {
		t.Fatal(err)
	}
	defer asrv.Close()
	ab, _ := New(Config{Backend: KindAnthropic, BaseURL: asrv.URL, Model: "m"}.WithAPIKey("k"))
	if d := decide(t, NewSupervisor(Options{Backend: ab}), shellPrompt("ls")); !d.Allowed() {
		t.Fatalf("anthropic: %+v", d)
	}
	req := asrv.Requests()[0]
	if !req.Contains(`"tool_choice":{"name":"judgment","type":"tool"}`) || len(req.Tools) != 1 || req.Tools[0] != "judgment" {
		t.Errorf("anthropic request does not force the judgment tool: %s", req.Body)
	}
	if req.Stream {
		t.Errorf("anthropic request is streamed; the backend reads one JSON message")
	}
}

// panicky is a backend that panics.
type panicky struct{}

func (panicky) Name() string { return "panicky" }
func (panicky) Complete(context.Context, Turn) (Reply, error) {
	panic("boom")
}

func TestABackendPanicIsADeny(t *testing.T) {
	d := decide(t, NewSupervisor(Options{Backend: panicky{}}), shellPrompt("ls"))
	if d.Allowed() || !strings.Contains(d.Reason, "boom") {
		t.Fatalf("decision %+v", d)
	}
}

func TestNoBackendIsADeny(t *testing.T) {
	d := decide(t, NewSupervisor(Options{}), shellPrompt("ls"))
	if d.Allowed() || d.By != ByWho {
		t.Fatalf("decision %+v", d)
	}
}

// deaf is a backend that ignores its context and never returns.
type deaf struct{ block chan struct{} }

func (deaf) Name() string { return "deaf" }
func (d deaf) Complete(context.Context, Turn) (Reply, error) {
	<-d.block
	return Reply{Text: `{"decision":"allow","reason":"late","risk":"low"}`}, nil
}

func TestABackendThatIgnoresItsContextIsADenyAtTheTimeout(t *testing.T) {
	d := deaf{block: make(chan struct{})}
	defer close(d.block)
	got := decide(t, NewSupervisor(Options{Backend: d, Timeout: 50 * time.Millisecond}), shellPrompt("ls"))
	if got.Allowed() || !strings.Contains(got.Reason, "did not answer within 50ms") {
		t.Fatalf("decision %+v", got)
	}
}
