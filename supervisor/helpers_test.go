package supervisor

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/fakemodel"
	"github.com/sentinelhq/sentinel/internal/fakeopenai"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// answer is one scripted model behaviour, independent of the API shape.
type answer struct {
	verdict *Verdict // a well-formed structured answer
	text    string   // free text instead of the structured answer
	status  int      // an HTTP error
	hang    bool     // never answers
	empty   bool     // an answer with nothing in it
	refusal string   // (openai) a refusal
}

// shape is one API shape with its fake server.
type shape struct {
	name  string
	start func(t *testing.T, answers ...answer) (Backend, func() []string) // the backend, and the texts each request carried
}

var shapes = []shape{
	{"anthropic", startAnthropic},
	{"openai", startOpenAI},
}

func startAnthropic(t *testing.T, answers ...answer) (Backend, func() []string) {
	t.Helper()
	var script fakemodel.Script
	for _, a := range answers {
		switch {
		case a.verdict != nil:
			script = append(script, fakemodel.Reply(fakemodel.ToolUse("judgment", a.verdict)))
		case a.status != 0:
			// the client retries once
			script = append(script, fakemodel.Fail(a.status), fakemodel.Fail(a.status))
		case a.hang:
			script = append(script, fakemodel.Hang())
		case a.empty:
			script = append(script, fakemodel.Reply())
		default:
			script = append(script, fakemodel.Reply(fakemodel.Text(a.text)))
		}
	}
	srv, err := fakemodel.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	b, err := New(Config{Backend: KindAnthropic, BaseURL: srv.URL, Model: "claude-fake"}.WithAPIKey("sk-test"))
	if err != nil {
		t.Fatal(err)
	}
	return b, func() []string {
		var out []string
		for _, r := range srv.Requests() {
			out = append(out, r.System+"\n"+r.UserText())
		}
		return out
	}
}

func startOpenAI(t *testing.T, answers ...answer) (Backend, func() []string) {
	t.Helper()
	var replies []fakeopenai.Reply
	for _, a := range answers {
		switch {
		case a.verdict != nil:
			b, _ := json.Marshal(a.verdict)
			replies = append(replies, fakeopenai.Reply{Content: string(b)})
		case a.status != 0:
			replies = append(replies, fakeopenai.Reply{Status: a.status}, fakeopenai.Reply{Status: a.status})
		case a.hang:
			replies = append(replies, fakeopenai.Reply{Hang: true})
		case a.refusal != "":
			replies = append(replies, fakeopenai.Reply{Refusal: a.refusal})
		case a.empty:
			replies = append(replies, fakeopenai.Reply{Content: ""})
		default:
			replies = append(replies, fakeopenai.Reply{Content: a.text})
		}
	}
	srv, err := fakeopenai.Start(replies...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	b, err := New(Config{Backend: KindOpenAI, BaseURL: srv.URL, Model: "gpt-fake"}.WithAPIKey("sk-test"))
	if err != nil {
		t.Fatal(err)
	}
	return b, func() []string {
		var out []string
		for _, r := range srv.Requests() {
			out = append(out, r.SystemText()+"\n"+r.UserText())
		}
		return out
	}
}

// openJournal makes a journal in a temp dir and returns it with a reader.
func openJournal(t *testing.T) (*journal.Journal, func() []journal.Event) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(path, "run-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j, func() []journal.Event {
		evs, err := journal.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
}

func shellPrompt(cmd string) *approvals.Prompt {
	return approvals.NewPrompt(approvals.Request{ID: "r-1", Kind: policy.KindShell, Command: cmd, Cwd: "/ws"},
		policy.Verdict{Decision: policy.Ask, Rule: "unknown-command", Reason: "no rule knows " + cmd})
}

func netPrompt(host string) *approvals.Prompt {
	return approvals.NewPrompt(approvals.Request{ID: "r-2", Kind: policy.KindNet, Host: host, Port: 443},
		policy.Verdict{Decision: policy.Ask, Rule: "new-host", Reason: "a host not on the allowlist", NeverDelegable: true})
}

func decide(t *testing.T, s *Supervisor, p *approvals.Prompt) approvals.Decision {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.Decide(ctx, p)
}

// judgeGoTest has a supervisor on b judge `go test ./...` for the task "make
// the tests pass" and checks the outcome: want is "allow", or a piece of the
// deny's reason. It returns the journal's reader.
func judgeGoTest(t *testing.T, b Backend, want string) func() []journal.Event {
	t.Helper()
	j, read := openJournal(t)
	d := decide(t, NewSupervisor(Options{Backend: b, Task: "make the tests pass", Journal: j}), shellPrompt("go test ./..."))
	if want == "allow" {
		if !d.Allowed() {
			t.Fatalf("decision %+v, want allow", d)
		}
	} else if d.Allowed() || !strings.Contains(d.Reason, want) {
		t.Fatalf("decision %+v, want a deny saying %q", d, want)
	}
	return read
}

// journaledJudgeTokens says whether a judge turn with tokens both in and out
// is on the journal.
func journaledJudgeTokens(evs []journal.Event) bool {
	for _, ev := range evs {
		var rec TurnRecord
		if ev.Decode(&rec) == nil && rec.Role == "judge" && rec.TokensIn > 0 && rec.TokensOut > 0 {
			return true
		}
	}
	return false
}
