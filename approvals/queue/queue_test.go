package queue

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/policy"
)

func post(run string) Post {
	return Post{Run: run, Project: "/src/p", Coder: "command",
		Request: approvals.Request{Kind: policy.KindShell, Command: "curl https://example.com", Input: json.RawMessage(`{"secret":"body"}`)},
		Verdict: policy.Verdict{Decision: policy.Ask, Rule: "net.tool", Reason: "curl talks to the network"}}
}

// posted starts a Post by the process pid and returns its id and the
// channel its answer (or error) arrives on.
func posted(t *testing.T, q *Queue, pid int, p Post) (string, chan Answer, chan error) {
	t.Helper()
	ids := make(chan string, 1)
	ans, errs := make(chan Answer, 1), make(chan error, 1)
	go func() {
		a, err := q.Post(context.Background(), servicewire.Peer{PID: pid}, p, func(p Posted) error { ids <- p.ID; return nil })
		if err != nil {
			errs <- err
			return
		}
		ans <- a
	}()
	return <-ids, ans, errs
}

func TestFirstAnswerWinsAndGoesToThePoster(t *testing.T) {
	q := New(nil)
	id1, ans1, _ := posted(t, q, 100, post("r1"))
	id2, ans2, _ := posted(t, q, 200, post("r2"))
	if l := q.List(); len(l) != 2 || l[0].ID != id1 || l[1].ID != id2 {
		t.Fatalf("list, oldest first: %+v", l)
	}
	if err := q.Answer(Answer{ID: id2, Decision: Deny, Message: "no", Via: "console"}); err != nil {
		t.Fatal(err)
	}
	if a := <-ans2; a.ID != id2 || a.Decision != Deny || a.Message != "no" {
		t.Fatalf("poster 2 got %+v", a)
	}
	err := q.Answer(Answer{ID: id2, Decision: Approve})
	if err == nil || !strings.Contains(err.Error(), "answered in the console") {
		t.Fatalf("a second answer: %v", err)
	}
	if err := q.Answer(Answer{ID: "nope", Decision: Approve}); err == nil || !strings.Contains(err.Error(), "no request") {
		t.Fatalf("an unknown id: %v", err)
	}
	select {
	case a := <-ans1:
		t.Fatalf("poster 1 got poster 2's answer: %+v", a)
	default:
	}
	if err := q.Answer(Answer{ID: id1, Decision: "maybe"}); err == nil {
		t.Fatal("a decision that is neither approve nor deny was taken")
	}
	if err := q.Answer(Answer{ID: id1, Decision: Deny, Remember: approvals.ScopeUser}); err == nil {
		t.Fatal("a remembered deny was taken")
	}
}

func TestOnlyThePosterWithdraws(t *testing.T) {
	q := New(nil)
	id, _, errs := posted(t, q, 100, post("r1"))
	if err := q.Withdraw(servicewire.Peer{PID: 999}, Withdraw{ID: id, Reason: "mine now"}); err == nil || !strings.Contains(err.Error(), "not posted by this process") {
		t.Fatalf("another process withdrew the request: %v", err)
	}
	if len(q.List()) != 1 {
		t.Fatal("the request is gone after a stranger's withdrawal")
	}
	if err := q.Withdraw(servicewire.Peer{PID: 100}, Withdraw{ID: id, Reason: "answered at the terminal"}); err != nil {
		t.Fatal(err)
	}
	if err := <-errs; err == nil {
		t.Fatal("the post did not end when withdrawn")
	}
	if err := q.Answer(Answer{ID: id, Decision: Approve}); err == nil || !strings.Contains(err.Error(), "answered at the terminal") {
		t.Fatalf("an answer after the terminal answered: %v", err)
	}
}

func TestReportBindsTheRunToItsProcess(t *testing.T) {
	q := New(nil)
	me := servicewire.Peer{PID: os.Getpid()}
	r := Report{Run: "r1", Project: "/src/p", Coder: "claude", State: StateRunning, Started: time.Now()}
	if err := q.Report(me, r); err != nil {
		t.Fatal(err)
	}
	r.State = StateLanded
	if err := q.Report(servicewire.Peer{PID: 1}, r); err == nil {
		t.Fatal("another process reported for the run")
	}
	for _, bad := range []Report{{Run: "../x", Project: "/src/p", State: StateRunning}, {Run: "r2", Project: "rel", State: StateRunning},
		{Run: "r2", Project: "/src/p", State: "hacked"}} {
		if err := q.Report(me, bad); err == nil {
			t.Fatalf("a bad report was taken: %+v", bad)
		}
	}
	id, _, _ := posted(t, q, os.Getpid(), post("r1"))
	st := q.Statuses()
	if len(st) != 1 || st[0].State != StateWaiting || st[0].Pending != 1 {
		t.Fatalf("statuses: %+v", st)
	}
	_ = q.Answer(Answer{ID: id, Decision: Approve})
	if st := q.Statuses(); st[0].State != StateRunning || st[0].Pending != 0 {
		t.Fatalf("after the answer: %+v", st)
	}
}

// A grant sent with an answer is checked by the run that owns the request:
// only a breadth its own card offers is remembered.
func TestAnswerGrantIsCheckedByTheRun(t *testing.T) {
	p := &Person{Run: "r1", Project: "/src/p"}
	pr := approvals.NewPrompt(approvals.Request{Kind: policy.KindShell, Command: "npm run test --watch", Cwd: "/w"},
		policy.Verdict{Decision: policy.Ask, Parts: []policy.Part{{Text: "npm run test --watch", Argv: []string{"npm", "run", "test", "--watch"}, Decision: policy.Ask}}})
	d := p.decision(pr, Answer{Decision: Approve, Remember: approvals.ScopeProject, Via: "queue"})
	if !d.Allowed() || d.Grant == nil || d.Grant.Scope != approvals.ScopeProject || len(d.Grant.Match.Exact) != 4 {
		t.Fatalf("remember with no breadth: the narrowest offered, got %+v %+v", d, d.Grant)
	}
	ok := approvals.SuggestGrants(pr.Request, pr.Verdict)[1]
	d = p.decision(pr, Answer{Decision: Approve, Remember: approvals.ScopeUser, Match: &ok, Via: "console"})
	if !d.Allowed() || d.Grant == nil || d.Grant.Scope != approvals.ScopeUser || !strings.Contains(d.Reason, "console") {
		t.Fatalf("an offered breadth: %+v", d)
	}
	for _, bad := range []approvals.Match{{Prefix: []string{"npm"}}, {Prefix: []string{"rm"}}, {Path: "**"}} {
		d = p.decision(pr, Answer{Decision: Approve, Remember: approvals.ScopeUser, Match: &bad})
		if d.Allowed() || d.Grant != nil {
			t.Fatalf("a breadth the card does not offer (%v) was approved: %+v", bad, d)
		}
	}
	d = p.decision(pr, Answer{Decision: Approve, Remember: approvals.ScopeProject, Also: []approvals.Match{{Host: "evil.example"}}})
	if d.Allowed() {
		t.Fatalf("extra hosts rode along: %+v", d)
	}
	d = p.decision(pr, Answer{Decision: Deny, Message: "use make test"})
	if d.Allowed() || d.Message != "use make test" || !strings.Contains(d.Reason, "denied in the queue: use make test") {
		t.Fatalf("deny: %+v", d)
	}
}

func TestNudgeCommandGetsNoSecrets(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "nudge.json")
	q := New(nil)
	p := post("r1")
	p.Request.Command = "curl -H 'Authorization: Bearer abc123' https://u:hunter2@example.com GITHUB_TOKEN=ghp_aaaaaaaaaaaaaaaaaaaaaaaa"
	id, _, _ := posted(t, q, 1, p)
	e := q.List()[0]
	n := Notifier{Command: "cat > " + out, Timeout: 5 * time.Second}
	var logged []string
	n.Log = func(s string) { logged = append(logged, s) }
	n.Notify(e)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err, logged)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "run", "project", "kind", "summary", "waiting_since"} {
		if _, ok := got[k]; !ok {
			t.Fatalf("the nudge lacks %s: %s", k, b)
		}
	}
	if got["id"] != id || len(got) != 6 {
		t.Fatalf("the nudge: %s", b)
	}
	for _, secret := range []string{"abc123", "hunter2", "ghp_aaaa", "body"} {
		if strings.Contains(string(b), secret) {
			t.Fatalf("the nudge carries a secret (%s): %s", secret, b)
		}
	}
	// a failing command is logged, never fatal
	n.Command = "exit 3"
	n.Notify(e)
	if len(logged) != 1 || !strings.Contains(logged[0], "exit status 3") {
		t.Fatalf("the failure was not logged: %q", logged)
	}
}

func TestRedact(t *testing.T) {
	for in, gone := range map[string]string{
		"API_KEY=sk-abcdefabcdefabcdefabcd make":       "sk-abcdef",
		"curl -u x https://bob:pw123@host/":            "pw123",
		"mysql --password=swordfish":                   "swordfish",
		"aws s3 ls # AKIAABCDEFGHIJKLMNOP":             "AKIAABCDEF",
		"curl -H 'authorization: token deadbeef' x":    "deadbeef",
		"export SLACK_TOKEN='xoxb-1111-2222-abcdefgh'": "xoxb",
	} {
		if got := Redact(in); strings.Contains(got, gone) || !strings.Contains(got, redacted) {
			t.Errorf("Redact(%q) = %q", in, got)
		}
	}
	if got := Redact("go test ./..."); got != "go test ./..." {
		t.Errorf("Redact changed an ordinary command: %q", got)
	}
}
