package tui

import (
	"strings"
	"testing"
)

// TestHelpOverACardHasTheScreen: ? on a waiting card at 60×15 shows the
// help in the screen's rows, not in the one row the card left (it showed
// "1–1 of 43" and a blank line); esc brings the card back, still waiting.
func TestHelpOverACardHasTheScreen(t *testing.T) {
	h := newHarness(t, wsInfo(), "dark", 60, 15)
	p := hostileTailPrompt(20)
	h.openCard(p)
	h.press("?")
	s := h.screen()
	for _, want := range []string{"next pane", "scroll down"} {
		if !strings.Contains(s, want) {
			t.Fatalf("help over a card at 60×15 does not show %q:\n%s", want, s)
		}
	}
	h.press("esc")
	s = h.screen()
	if !strings.Contains(s, "APPROVAL") {
		t.Fatalf("esc did not bring the card back:\n%s", s)
	}
	if a, ok := answered(p); ok {
		t.Fatalf("help answered the card: %+v", a)
	}
}
