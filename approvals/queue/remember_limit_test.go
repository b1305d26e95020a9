package queue

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// `queue approve ID --remember user` on a person-only request (a secret
// read) reaches the run as a run-scope grant, and the queue says so to
// whoever answered; the run holds its own grant to the same limit.
func TestQueueRemembersPersonOnlyForTheRunAtMost(t *testing.T) {
	secret := policy.Verdict{Decision: policy.Ask, Rule: policy.RulePathReadSecret, Reason: "cat prints .env, a file that usually holds secrets",
		Parts: []policy.Part{{Text: "cat .env", Argv: []string{"cat", ".env"}, Decision: policy.Ask, Rule: policy.RulePathReadSecret}}}
	q := New(nil)
	p := post("r1")
	p.Request = approvals.Request{Kind: policy.KindShell, Command: "cat .env"}
	p.Verdict = secret
	id, ans, _ := posted(t, q, 7, p)
	got, err := q.AnswerNoted(Answer{ID: id, Decision: Approve, Remember: approvals.ScopeUser})
	if err != nil {
		t.Fatal(err)
	}
	if a := <-ans; a.Remember != approvals.ScopeRun {
		t.Errorf("the run received remember %q, want run", a.Remember)
	}
	if !strings.Contains(got.Note, "for this run only") || !strings.Contains(got.Note, "secrets") {
		t.Errorf("the answer's note: %q", got.Note)
	}

	person := &Person{Run: "r1", Project: "/src/p"}
	pr := approvals.NewPrompt(p.Request, secret)
	d := person.decision(pr, Answer{Decision: Approve, Remember: approvals.ScopeProject, Via: "queue"})
	if !d.Allowed() || d.Grant == nil || d.Grant.Scope != approvals.ScopeRun || !strings.Contains(d.Reason, "for this run only") {
		t.Fatalf("the run's decision: %+v %+v", d, d.Grant)
	}
}
