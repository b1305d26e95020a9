package tui

import (
	"fmt"
	"strings"
	"testing"
)

func TestGoldenReview(t *testing.T) {
	for _, theme := range []string{"dark", "light"} {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("review_%s_%dx%d", theme, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				hs, _ := openReview(t, theme, sz[0], sz[1])
				got := hs.render()
				if n := strings.Count(got, "\n") + 1; n != sz[1] {
					t.Fatalf("view has %d rows, want %d", n, sz[1])
				}
				golden(t, name, got)
			})
		}
	}
}

func TestGoldenReviewScreens(t *testing.T) {
	screens := []struct {
		name string
		do   func(h *harness)
	}{
		{"go_file", func(h *harness) { h.pressReview("G", "tab", "space") }},
		{"split", func(h *harness) { h.pressReview("G", "v", "]") }},
		{"binary", func(h *harness) { h.pressReview("down", "down", "down") }},
		{"checks", func(h *harness) { h.pressReview("c") }},
		{"help", func(h *harness) { h.pressReview("?") }},
		{"confirm", func(h *harness) { h.pressReview("x", "a") }},
	}
	for _, sc := range screens {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("review_%s_%dx%d", sc.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				hs, _ := openReview(t, "nocolor", sz[0], sz[1])
				sc.do(hs)
				golden(t, name, hs.render())
			})
		}
	}
}

func TestGoldenReviewStandalone(t *testing.T) {
	req, _ := fixtureRequest(t)
	clk := &clock{now: t0}
	a := newReviewApp(req, Options{Theme: "dark", Now: clk.Now})
	a.Update(teaSize(100, 30))
	clk.Add(DefaultGuard)
	a.Update(keyMsg("G"))
	golden(t, "review_standalone_dark_100x30", a.render())
}
