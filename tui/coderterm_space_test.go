package tui

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// TestCoderPaneShowsNoBreakSpacesAsSpaces: Claude Code prints a no-break
// space after its prompt mark and before its tool results (❯ , ⎿ ); the
// pane shows it as a space, not as U+FFFD. Other hidden characters are
// still replaced.
func TestCoderPaneShowsNoBreakSpacesAsSpaces(t *testing.T) {
	rec := recordedClaude(t)
	if !strings.Contains(rec, "\u00a0") {
		t.Fatal("the recording has no no-break space: the test would prove nothing")
	}
	info := testInfo()
	info.FullScreenCoder = true
	h := newHarness(t, info, "dark", 120, 40)
	h.press("z")
	h.send(eventsMsg([]journal.Event{
		ev(1, journal.Coder, "output", rec, nil),
		ev(2, journal.Coder, "output", "\r\nwide\u3000space thin\u2009space nbsp\u00a0space zw\u200bspace pua\ue000x\r\n", nil),
	}))
	s := h.screen()
	notContains(t, s, "❯\ufffd")
	contains(t, s, "wide  space thin space nbsp space")
	notContains(t, s, "\u200b")  // a zero-width space is still not passed through
	contains(t, s, "pua\ufffdx") // nor a private-use character
}
