package plain

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/policy"
)

// promptWith answers p's card with the typed lines and returns the card.
func promptWith(t *testing.T, p *approvals.Prompt, typed string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.WriteString(typed)
	w.Close()
	var out bytes.Buffer
	pr := &Prompter{In: r, Out: &out}
	pr.reader = bufio.NewReader(r)
	pr.ask(p)
	return out.String()
}

// TestPlainInstallCardOffersItsHosts: --plain's card for a package install
// names its registry hosts and h approves with them; on a card without
// hosts h is not a choice.
func TestPlainInstallCardOffersItsHosts(t *testing.T) {
	p := approvals.NewPrompt(approvals.Request{Kind: policy.KindShell, Command: "npm install"}, policy.Verdict{Decision: policy.Ask})
	p.Fetch = &policy.Fetch{Ecosystem: policy.EcoNPM, Hosts: []string{"registry.npmjs.org"}}
	card := promptWith(t, p, "h\n")
	if !strings.Contains(card, "needs: registry.npmjs.org (npm registry)") || !strings.Contains(card, "[h]osts") {
		t.Fatalf("the card does not name the hosts:\n%s", card)
	}
	if a := <-p.Replies(); a.Kind != approvals.ApproveOnce || !a.WithHosts {
		t.Fatalf("h answered %+v", a)
	}
	q := approvals.NewPrompt(approvals.Request{Kind: policy.KindShell, Command: "make"}, policy.Verdict{Decision: policy.Ask})
	card = promptWith(t, q, "h\na\n")
	if strings.Contains(card, "[h]osts") {
		t.Fatalf("a card without hosts offers h:\n%s", card)
	}
	if a := <-q.Replies(); a.WithHosts {
		t.Fatalf("h counted on a card without hosts: %+v", a)
	}
}

// TestPlainCardRings: with [notify] bell on, a --plain card rings the bell
// before it is drawn; with it off, no bell byte reaches the terminal.
func TestPlainCardRings(t *testing.T) {
	for _, bell := range []bool{true, false} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString("d\n\n")
		w.Close()
		var out bytes.Buffer
		pr := &Prompter{In: r, Out: &out, Bell: bell}
		pr.reader = bufio.NewReader(r)
		pr.ask(approvals.NewPrompt(approvals.Request{Kind: policy.KindShell, Command: "make"}, policy.Verdict{Decision: policy.Ask}))
		r.Close()
		if got := strings.HasPrefix(out.String(), "\a"); got != bell {
			t.Errorf("bell %v: the card began %q", bell, out.String()[:min(len(out.String()), 20)])
		}
	}
}

// TestPlainSkipAnswersAtOnce: s answers the card with a deny that tells the
// coder the person skipped it; the request is not parked.
func TestPlainSkipAnswersAtOnce(t *testing.T) {
	p := approvals.NewPrompt(approvals.Request{Kind: policy.KindShell, Command: "make"}, policy.Verdict{Decision: policy.Ask})
	got := make(chan approvals.Decision, 1)
	go func() { got <- approvals.NewPersonQueue().Decide(context.Background(), p) }()
	card := promptWith(t, p, "s\n")
	if !strings.Contains(card, "skipped: the coder is told to go on without it") {
		t.Fatalf("the card does not say what skip did:\n%s", card)
	}
	select {
	case d := <-got:
		if d.Allowed() || d.Message != "skipped by the person: go on without it, or ask again later" || !approvals.Skipped(d) {
			t.Fatalf("s decided %+v", d)
		}
	case <-time.After(10 * time.Second): // a hang bound only
		t.Fatal("s left the request unanswered")
	}
}
