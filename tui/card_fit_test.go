package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cardSizes are the four screens the issue was tried at.
var cardSizes = [][2]int{{60, 15}, {80, 24}, {120, 40}, {200, 50}}

// oneLine is the screen's text with every run of spaces made one, so a
// notice wrapped over rows reads as the sentence it is.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// noSpace is s without any white space: text wrapped at "/" or "-" (no
// space lost there) compares whole.
func noSpace(s string) string { return strings.Join(strings.Fields(s), "") }

// TestCardTitlesAndNoticesAreWholeAtEverySize: at 60×15, 80×24, 120×40
// and 200×50, a card's header (with a flood's count and X, from its coder),
// the counter over its change and the notice approve gives while rows are
// unseen are each on screen whole; the counter names exactly the rows shown.
func TestCardTitlesAndNoticesAreWholeAtEverySize(t *testing.T) {
	for _, size := range cardSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, wsInfo(), "dark", size[0], size[1])
			p := hostileTailPrompt(30)
			h.openCard(p)
			h.send(promptMsg{hostileTailPrompt(30)})
			h.send(promptMsg{hostileTailPrompt(30)})
			s := h.screen()
			headerParts := []string{"APPROVAL · write", "1 of 3 pending", "[X] deny all 3 write", "from claude"}
			if size[0] < 80 {
				headerParts = []string{"write", "1 of 3", "[X] deny all 3", "from claude"}
			}
			for _, part := range headerParts {
				contains(t, s, part)
			}
			for _, l := range strings.Split(h.render(), "\n") {
				if w := ansi.StringWidth(l); w != size[0] {
					t.Fatalf("a row is %d cells wide, want %d: %q", w, size[0], ansi.Strip(l))
				}
			}
			m := rowsCounter.FindStringSubmatch(s)
			if m == nil {
				t.Fatalf("no whole rows counter:\n%s", s)
			}
			extra := len(h.m.content().extra) // the card's own rows that did not fit come after the change
			if shown := len(addedRow.FindAllString(s, -1)); shown != atoi(m[2])-atoi(m[1])+1 || atoi(m[3]) != 30+extra {
				t.Fatalf("the counter says rows %s–%s of %s but %d rows are on screen:\n%s", m[1], m[2], m[3], shown, s)
			}
			if !regexp.MustCompile(`rows \d+–\d+ of \d+ · (pgup pgdn g G )?\[ \] scroll · see (it )?all`).MatchString(s) {
				t.Fatalf("the counter does not say how to scroll and that approve waits:\n%s", s)
			}
			if h.m.cardClipped {
				t.Fatalf("the card is clipped:\n%s", s)
			}
			h.press("1")
			notice := h.m.unseenNotice()
			if !strings.Contains(noSpace(h.screen()), noSpace(notice)) {
				t.Fatalf("the notice %q is not on screen whole:\n%s", notice, h.screen())
			}
		})
	}
}

// TestAlwaysIsNeverCutOnACard: what 2 would remember is on the card in
// full at every size (no sentence ends mid-way in a dropped "…").
func TestAlwaysIsNeverCutOnACard(t *testing.T) {
	for _, size := range cardSizes {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newHarness(t, wsInfo(), "dark", size[0], size[1])
			p := hostileTailPrompt(30)
			h.openCard(p)
			s := noSpace(h.screen())
			want := noSpace(alwaysTextIn(p, size[0]-10))
			if !strings.Contains(s, want) {
				t.Fatalf("the card does not show all of what 2 covers (%q):\n%s", want, h.screen())
			}
			if h.m.cardClipped {
				t.Fatalf("the card is clipped at %v:\n%s", size, h.screen())
			}
		})
	}
}
