package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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
	a, _ := newStandaloneReview(req, Options{Theme: "dark", Now: clk.Now})
	a.Update(teaSize(100, 30))
	clk.Add(DefaultGuard)
	a.Update(keyMsg("G"))
	golden(t, "review_standalone_dark_100x30", a.render())
}

// TestReviewFitsEverySize: at any size each row is exactly the terminal's
// width and the screen exactly its height, in every view of the screen.
func TestReviewFitsEverySize(t *testing.T) {
	for _, sz := range [][2]int{{20, 5}, {40, 8}, {60, 15}, {99, 31}, {200, 60}} {
		for _, keys := range [][]string{nil, {"G", "v"}, {"c"}, {"?"}, {"a"}, {"d"}} {
			hs, _ := openReview(t, "dark", sz[0], sz[1])
			hs.pressReview(keys...)
			rows := strings.Split(hs.render(), "\n")
			if len(rows) != sz[1] {
				t.Fatalf("%dx%d after %v: %d rows", sz[0], sz[1], keys, len(rows))
			}
			for i, r := range rows {
				if w := ansi.StringWidth(r); w != sz[0] {
					t.Fatalf("%dx%d after %v: row %d is %d cells wide: %q", sz[0], sz[1], keys, i, w, ansi.Strip(r))
				}
			}
		}
	}
}
