package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/policy"
)

// TestXDeniesEveryPendingRequestOfTheShownKind: a coder floods the person
// with shell requests; one key denies them all, each with a message, and
// the real request of another kind (a network host) is the next card.
func TestXDeniesEveryPendingRequestOfTheShownKind(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	var flood []*approvals.Prompt
	for i := 0; i < 50; i++ {
		flood = append(flood, shellPrompt(fmt.Sprintf("./flood.sh %d", i), "./flood.sh"))
	}
	h.openCard(flood[0])
	for _, p := range flood[1:25] {
		h.send(promptMsg{p})
	}
	real := approvals.NewPrompt(approvals.Request{ID: "q2", Kind: policy.KindNet, Host: "github.com", Port: 443}, policy.Verdict{Decision: policy.Ask})
	h.send(promptMsg{real})
	for _, p := range flood[25:] {
		h.send(promptMsg{p})
	}
	contains(t, h.screen(), "[X] deny all 50 shell")
	h.press("?")
	contains(t, h.screen(), "deny all pending of this kind")
	h.press("esc")

	h.press("X")
	contains(t, h.screen(), "Deny all 50 pending shell request(s)?")
	h.press("y")
	for i, p := range flood {
		a, ok := answered(p)
		if !ok || a.Kind != approvals.Deny || !strings.Contains(a.Message, "every other pending shell request") {
			t.Fatalf("flooded request %d: answer %+v %v; want denied with a message", i, a, ok)
		}
	}
	if a, ok := answered(real); ok {
		t.Fatalf("the request of another kind was answered too: %+v", a)
	}
	h.clk.Add(DefaultGuard)
	s := h.screen()
	contains(t, s, "APPROVAL · net")
	contains(t, s, "github.com:443")
	contains(t, s, "denied 50 pending shell request(s)")
	notContains(t, s, "deny all")
}

// TestAFailedJournalIsShownOnTheFooter: the one event the journal could
// not write reaches the screen where the person looks.
func TestAFailedJournalIsShownOnTheFooter(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 160, 40)
	h.send(eventsMsg{ev(9, journal.System, journal.KindFailed, "journal /p/events.jsonl: write: no space left on device", nil)})
	contains(t, h.screen(), "journal cannot be written")
	contains(t, h.screen(), "no space left on device")
}
