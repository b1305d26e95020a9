package tui

import "testing"

// TestEveryLaneHasItsEntryAndItsPlace: each lane has a title, and both
// layouts (the grid on a wide screen, the stack on a narrow one) show
// every lane, side by side and never on top of another.
func TestEveryLaneHasItsEntryAndItsPlace(t *testing.T) {
	for id, l := range lanes {
		if l.title == "" {
			t.Errorf("pane %d has no entry in lanes", id)
		}
	}
	for _, size := range [][2]int{{200, 60}, {100, 60}} {
		h := newHarness(t, testInfo(), "dark", size[0], size[1])
		lay := h.m.layout()
		if wide := size[0] >= gridMinWidth; lay.grid != wide {
			t.Errorf("%dx%d: grid = %v, want %v (the grid on a wide screen, the stack on a narrow one)", size[0], size[1], lay.grid, wide)
		}
		for a := paneID(0); int(a) < numLanes; a++ {
			ra, ok := lay.rect(a)
			if !ok || ra.w < 1 || ra.h < 2 {
				t.Errorf("%dx%d: lane %s is not on screen (%v)", size[0], size[1], lanes[a].title, ra)
				continue
			}
			for b := a + 1; int(b) < numLanes; b++ {
				if rb, ok := lay.rect(b); ok && ra.x < rb.x+rb.w && rb.x < ra.x+ra.w && ra.y < rb.y+rb.h && rb.y < ra.y+ra.h {
					t.Errorf("%dx%d: lanes %s %v and %s %v overlap", size[0], size[1], lanes[a].title, ra, lanes[b].title, rb)
				}
			}
		}
	}
	for tg := tagSystem; tg <= tagAdversary; tg++ {
		if tg.label() == "" || tags[tg].style == nil {
			t.Errorf("tag %d has no label or style in tags", tg)
		}
	}
}
