package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestCtrlCPassesTheKeyGuard: a key guard keeps a keystroke in flight from
// answering what just opened; Ctrl-C is never an answer, so it is never
// swallowed. On `sentinel review` a Ctrl-C at once after the screen opens
// is a stop (nothing decided); on a run's screen a card that just opened
// does not keep two Ctrl-Cs from stopping the run, nor a third from
// leaving — and no other key answers the card while its guard runs.
func TestCtrlCPassesTheKeyGuard(t *testing.T) {
	t.Run("review", func(t *testing.T) {
		req, ans := fixtureRequest(t)
		r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: (&clock{now: t0}).Now})
		r.Update(teaSize(80, 24))
		r.Update(keyMsg("a")) // an answer key in the guard is ignored
		_, cmd := r.Update(keyMsg("ctrl+c"))
		if cmd == nil || !a.interrupted || a.answered {
			t.Fatalf("ctrl+c in the key guard: quit=%v interrupted=%v answered=%v", cmd != nil, a.interrupted, a.answered)
		}
		if _, ok := verdict(ans); ok {
			t.Fatal("ctrl+c in the key guard sent a verdict")
		}
	})
	t.Run("run", func(t *testing.T) {
		h := newHarness(t, testInfo(), "dark", 80, 24)
		p := shellPrompt("make", "make")
		h.send(promptMsg{p}) // the guard runs: the clock does not move
		h.press("a")
		if _, ok := answered(p); ok {
			t.Fatal("a key in the guard answered the card")
		}
		h.press("ctrl+c")
		contains(t, h.screen(), "Stop the run and quit?")
		h.press("ctrl+c")
		if a, ok := answered(p); !ok || a.Kind != 2 || !h.m.stopping {
			t.Fatalf("the second ctrl+c in the guard did not stop the run (answer %+v, %v; stopping %v)", a, ok, h.m.stopping)
		}
		cmd := h.send(keyMsg("ctrl+c"))
		if cmd == nil {
			t.Fatal("a third ctrl+c while stopping did nothing")
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Fatal("a third ctrl+c while stopping did not quit")
		}
	})
}
