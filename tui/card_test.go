package tui

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
)

// openCard delivers p and lets the key guard pass.
func (h *harness) openCard(p *approvals.Prompt) {
	h.t.Helper()
	h.send(promptMsg{p})
	h.clk.Add(DefaultGuard)
}

func TestCardIgnoresKeysDuringGuard(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	p := shellPrompt("npm run test", "npm", "run", "test")
	h.send(promptMsg{p})
	for _, k := range []string{"a", "r", "d", "esc"} {
		h.press(k)
	}
	h.clk.Add(DefaultGuard - time.Millisecond)
	h.press("a")
	if a, ok := answered(p); ok {
		t.Fatalf("a key inside the guard answered the card: %+v", a)
	}
	contains(t, h.screen(), "keys are ignored for a moment")
	h.clk.Add(time.Millisecond)
	contains(t, h.screen(), "[a] approve once")
	h.press("a")
	a, ok := answered(p)
	if !ok || a.Kind != approvals.ApproveOnce {
		t.Fatalf("after the guard, a should approve once; got %+v, %v", a, ok)
	}
	notContains(t, h.screen(), "APPROVAL · shell")
}

func TestCardAnswers(t *testing.T) {
	tests := []struct {
		name    string
		keys    []string
		want    approvals.AnswerKind
		message string
	}{
		{"a approves once", []string{"a"}, approvals.ApproveOnce, ""},
		{"d then enter denies without message", []string{"d", "enter"}, approvals.Deny, ""},
		{"d with a message", []string{"d", "u", "s", "e", " ", "m", "a", "k", "e", "enter"}, approvals.Deny, "use make"},
		{"r then enter remembers", []string{"r", "enter"}, approvals.ApproveRemember, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, testInfo(), "dark", 120, 40)
			p := shellPrompt("npm run test", "npm", "run", "test")
			h.openCard(p)
			h.press(tt.keys...)
			a, ok := answered(p)
			if !ok {
				t.Fatalf("no answer after %v; screen:\n%s", tt.keys, h.screen())
			}
			if a.Kind != tt.want || a.Message != tt.message {
				t.Fatalf("answer = %+v, want kind %v message %q", a, tt.want, tt.message)
			}
			if k := h.coderKeys(); k != "" {
				t.Fatalf("answering the card sent %q to the coder", k)
			}
		})
	}
}

func TestDenyMessageEscGoesBack(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	p := shellPrompt("npm run test", "npm", "run", "test")
	h.openCard(p)
	h.press("d")
	contains(t, h.screen(), "message for the coder")
	h.typeText("no")
	h.press("esc")
	if _, ok := answered(p); ok {
		t.Fatal("esc in the deny message should go back to the card, not answer")
	}
	contains(t, h.screen(), "[a] approve once")
}

func TestCardQueueAnswersInOrder(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p1 := shellPrompt("npm run test", "npm", "run", "test")
	p2 := shellPrompt("npm run lint", "npm", "run", "lint")
	p3 := shellPrompt("make", "make")
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.send(promptMsg{p3})
	s := h.screen()
	contains(t, s, "1 of 3 pending")
	contains(t, s, "npm run test")
	contains(t, s, "3 pending")
	h.press("a")
	// the next card re-arms the guard
	h.press("d", "enter")
	if _, ok := answered(p2); ok {
		t.Fatal("the second card accepted keys before its own guard passed")
	}
	h.clk.Add(DefaultGuard)
	contains(t, h.screen(), "npm run lint")
	h.press("d", "enter")
	h.clk.Add(DefaultGuard)
	h.press("a")
	for i, want := range []approvals.AnswerKind{approvals.ApproveOnce, approvals.Deny, approvals.ApproveOnce} {
		a, ok := answered([]*approvals.Prompt{p1, p2, p3}[i])
		if !ok || a.Kind != want {
			t.Fatalf("prompt %d: answer %+v %v, want %v", i+1, a, ok, want)
		}
	}
	notContains(t, h.screen(), "pending")
}

// s answers at once: a deny telling the coder the person skipped it (so it
// goes on instead of waiting out the timeout), and the next card opens.
func TestSkipAnswersWithADenyAndMovesOn(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p1 := shellPrompt("npm run test", "npm", "run", "test")
	p2 := shellPrompt("make", "make")
	got := make(chan approvals.Decision, 1)
	go func() { got <- approvals.NewPersonQueue().Decide(context.Background(), p1) }()
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.press("s")
	select {
	case d := <-got:
		if d.Allowed() || d.Message != "skipped by the person: go on without it, or ask again later" || !approvals.Skipped(d) {
			t.Fatalf("skip decided %+v", d)
		}
	case <-time.After(10 * time.Second): // a hang bound only
		t.Fatal("skip left the request unanswered")
	}
	h.clk.Add(DefaultGuard)
	s := h.screen()
	contains(t, s, "command  make")
	notContains(t, s, "npm run test")
	if _, ok := answered(p2); ok {
		t.Fatal("skip answered the next request too")
	}
	h.press("a")
	if a, ok := answered(p2); !ok || a.Kind != approvals.ApproveOnce {
		t.Fatalf("p2: %+v %v", a, ok)
	}
}

func TestCardRevealsHiddenCharacters(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	// a zero-width space, a right-to-left override and a Cyrillic а
	p := shellPrompt("rm\u200b -rf /tmp/x\u202e; c\u0430t f", "rm")
	h.openCard(p)
	s := h.screen()
	contains(t, s, "rm<U+200B> -rf /tmp/x<U+202E>; c<U+0430>t f")
	contains(t, s, "3 invisible or non-ASCII character(s)")
}

func TestCardShowsRecommendationAndCwd(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p := shellPrompt("npm run test", "npm", "run", "test")
	p.Recommendation = "supervisor: allow — runs the project's own tests"
	h.openCard(p)
	s := h.screen()
	contains(t, s, "advice   supervisor: allow — runs the project's own tests")
	contains(t, s, "cwd      /work/ws")
	contains(t, s, "policy   ASK · unknown-program — npm is not on the allow list")
}

func TestCardDecidedElsewhereCloses(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p1 := shellPrompt("npm run test", "npm", "run", "test")
	p2 := shellPrompt("make", "make")
	p2.Request.ID = "q2"
	h.openCard(p1)
	h.send(promptMsg{p2})
	h.send(eventsMsg{ev(1, "approval", "decision", "denied: timed out", map[string]any{"decision": "deny", "by": "person", "reason": "denied in the console: not now", "request_id": "q1"})})
	s := h.screen()
	contains(t, s, "command  make")
	contains(t, s, "decided elsewhere")
	contains(t, s, "denied in the console: not now") // where it was answered
	h.press("a")                                     // the next card has its own guard
	if _, ok := answered(p2); ok {
		t.Fatal("the next card took a key inside its guard")
	}
	h.clk.Add(DefaultGuard)
	h.press("a")
	if _, ok := answered(p2); !ok {
		t.Fatal("the remaining card did not take its answer")
	}
	if _, ok := answered(p1); ok {
		t.Fatal("a request decided elsewhere was answered again")
	}
}

func TestCardWrapsLongPolicyReason(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	p := shellPrompt("./scripts/lint.sh", "./scripts/lint.sh")
	p.Verdict.Reason = "runs ./scripts/lint.sh, a path-qualified program, which is not the program of the same name on PATH"
	h.openCard(p)
	s := h.screen()
	contains(t, s, "policy   ASK · unknown-program — runs ./scripts/lint.sh, a path-qualified")
	contains(t, s, "         program, which is not the program of the same name on PATH")
}

// TestEscNeverAnswersACard: Esc is "back" everywhere in the app, and the
// usual way to leave a search; pressed on a card — alone, or after a search
// (/, type, Enter, Esc) — it answers nothing and says what does.
func TestEscNeverAnswersACard(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p := shellPrompt("git push origin main", "git", "push", "origin", "main")
	h.openCard(p)
	h.press("esc")
	h.press("/")
	h.typeText("push")
	h.press("enter", "esc", "esc")
	if a, ok := answered(p); ok {
		t.Fatalf("esc answered the card: %+v", a)
	}
	s := h.screen()
	contains(t, s, "APPROVAL · shell")
	notContains(t, s, "[esc] deny")
}

// TestCardOfAnEndedProcessSaysWithdrawn: a card whose asker ended (the
// broker's decision says withdrawn) leaves the screen saying so, and 1
// answers nothing.
func TestCardOfAnEndedProcessSaysWithdrawn(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	p1 := shellPrompt("npm run test", "npm", "run", "test")
	h.openCard(p1)
	h.send(eventsMsg{ev(1, "approval", "decision", "denied", map[string]any{"decision": "deny", "by": "error", "reason": approvals.WithdrawnReason, "request_id": "q1"})})
	s := h.screen()
	contains(t, s, "withdrawn, the process that asked ended")
	notContains(t, s, "command  npm run test")
	h.clk.Add(DefaultGuard)
	h.press("1")
	if _, ok := answered(p1); ok {
		t.Fatal("a withdrawn card was answered")
	}
}
