package tui

import (
	"fmt"
	"strings"
	"testing"
)

// TestCardGuardKeepsTheChangesRows: while the key guard holds, the card's
// change is drawn in the same rows as after it. The guard's one-row notice
// stood where two rows of keys come at 60×15 and 80×24, so a row of the
// change drawn only during the guard counted as seen and was then hidden
// under the keys: at 60×15 the console said "2 of 17 rows seen" with row
// 2 not on screen, and a card whose last line was that row could be
// approved with it hidden.
func TestCardGuardKeepsTheChangesRows(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {120, 40}} {
		for _, n := range []int{6, 8, 12, 20} {
			t.Run(fmt.Sprintf("%dx%d/%d", size[0], size[1], n), func(t *testing.T) {
				h := newHarness(t, wsInfo(), "dark", size[0], size[1])
				p := hostileTailPrompt(n)
				h.send(promptMsg{p})
				during := h.screen()
				h.clk.Add(DefaultGuard)
				after := h.screen()
				if !strings.Contains(during, "keys are ignored for a moment") || strings.Contains(after, "keys are ignored for a moment") {
					t.Fatalf("the guard's notice is not where the test needs it:\n%s\n---\n%s", during, after)
				}
				if d, a := addedRow.FindAllString(during, -1), addedRow.FindAllString(after, -1); len(d) != len(a) {
					t.Fatalf("%d rows of the change during the guard, %d after:\n%s\n---\n%s", len(d), len(a), during, after)
				}
			})
		}
	}
}
