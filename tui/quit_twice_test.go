package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestCtrlCTwiceStopsAndThriceLeaves: ctrl+c asks whether to stop, a second
// ctrl+c is yes (the pending request is denied and the run stopped), and a
// third while the stop waits quits the program at once.
func TestCtrlCTwiceStopsAndThriceLeaves(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 80, 24)
	p := shellPrompt("make", "make")
	h.openCard(p)
	h.press("ctrl+c")
	contains(t, h.screen(), "Stop the run and quit?")
	h.press("ctrl+c")
	if a, ok := answered(p); !ok || a.Kind != 2 {
		t.Fatalf("the second ctrl+c did not stop the run (pending request %+v, %v)", a, ok)
	}
	if !h.m.stopping {
		t.Fatal("the second ctrl+c did not start the stop")
	}
	cmd := h.send(keyMsg("ctrl+c"))
	if cmd == nil {
		t.Fatal("a third ctrl+c while stopping did nothing")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a third ctrl+c while stopping did not quit")
	}
}
