package tui

import "testing"

// Ctrl-C on the standalone review is a stop, not a quiet quit: the screen
// ends, nothing is decided, and RunReview's caller learns it was
// interrupted (sentinel review then exits 130) — at the file list and
// while a reason is being typed alike. q stays a quit without a verdict.
func TestCtrlCOnTheStandaloneReviewIsAStop(t *testing.T) {
	for _, before := range [][]string{nil, {"r"}} {
		req, ans := fixtureRequest(t)
		clk := &clock{now: t0}
		r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: clk.Now})
		r.Update(teaSize(80, 24))
		clk.Add(DefaultGuard)
		for _, k := range before {
			r.Update(keyMsg(k))
		}
		_, cmd := r.Update(keyMsg("ctrl+c"))
		if cmd == nil || !a.interrupted || a.answered {
			t.Fatalf("after %q, ctrl+c: quit=%v interrupted=%v answered=%v", before, cmd != nil, a.interrupted, a.answered)
		}
		if _, ok := verdict(ans); ok {
			t.Fatalf("after %q, ctrl+c sent a verdict", before)
		}
	}
	req, _ := fixtureRequest(t)
	r, a := newStandaloneReview(req, Options{Theme: "dark", NoColor: true, Now: (&clock{now: t0.Add(DefaultGuard)}).Now})
	r.Update(teaSize(80, 24))
	r.Update(keyMsg("q"))
	if a.interrupted {
		t.Fatal("q counted as an interrupt")
	}
}
