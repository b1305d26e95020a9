package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
)

// fitSizes are the screens keys must never fall off.
var fitSizes = [][2]int{{60, 15}, {80, 24}, {120, 40}}

// TestGoldenKeysFit: the card (with a new file's content), the remember
// panel, help and the review bar at 60×15, 80×24 and 120×40, as golden
// views; on each the screen's keys are whole (a key row wraps or
// abbreviates, never cuts).
func TestGoldenKeysFit(t *testing.T) {
	screens := []struct {
		name   string
		review bool
		do     func(h *harness)
		keys   []string // each must show whole
	}{
		{"card_content", false, func(h *harness) { h.openCard(workflowPrompt(8)) },
			[]string{"[a] approve once", "[r] approve + remember", "[d] deny…", "[s] skip", "[1/2/3]", "+name: ci", "rows 1–"}},
		{"remember_fit", false, func(h *harness) {
			h.m.opts.Preview = chainPreview(h.t)
			h.s.Past = []approvals.Request{{Kind: "shell", Command: "mytool run lint"}, {Kind: "shell", Command: "mytool build"}}
			h.openCard(shellPrompt("mytool run test", "mytool", "run", "test"))
			h.press("r")
			h.send(pastMsg(h.s.PastRequests()))
		}, []string{"[enter] confirm", "[esc] back", "[o] scope", "[e] expiry", "[project]", "▸ exactly: mytool run test"}},
		{"help_fit", false, func(h *harness) { h.press("?") }, []string{"HELP"}},
		{"review_bar", true, func(h *harness) {}, []string{"[a] approve", "[d] reject"}},
	}
	for _, sc := range screens {
		for _, sz := range fitSizes {
			name := fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				var h *harness
				if sc.review {
					h, _ = openReview(t, "nocolor", sz[0], sz[1])
				} else {
					h = newThemedHarness(t, "nocolor", sz[0], sz[1])
					h.m.info.Workspace = testWS
					h.send(eventsMsg(demoEvents()))
				}
				sc.do(h)
				got := h.render()
				if n := strings.Count(got, "\n") + 1; n != sz[1] {
					t.Fatalf("view has %d rows, want %d", n, sz[1])
				}
				for _, l := range strings.Split(got, "\n") {
					if w := ansi.StringWidth(l); w != sz[0] {
						t.Fatalf("a row is %d cells wide, want %d: %q", w, sz[0], ansi.Strip(l))
					}
				}
				s := ansi.Strip(got)
				for _, k := range sc.keys {
					contains(t, s, k)
				}
				golden(t, name, got)
			})
		}
	}
}

// TestHelpScrollsOnASmallScreen: at 60×15 help does not fit; scrolling
// brings its last binding into view.
func TestHelpScrollsOnASmallScreen(t *testing.T) {
	h := newThemedHarness(t, "nocolor", 60, 15)
	h.press("?")
	s := h.screen()
	contains(t, s, "↑/↓ scroll")
	last := h.m.keys.Confirm.Help().Desc
	notContains(t, s, "enter  "+last)
	for i := 0; i < 60; i++ {
		h.press("down")
	}
	contains(t, h.screen(), last)
}

// TestFooterKeepsAttachAndQuit: a footer too narrow for every hint drops
// the others first: i and q stay.
func TestFooterKeepsAttachAndQuit(t *testing.T) {
	for _, w := range []int{60, 80, 120} {
		h := newThemedHarness(t, "nocolor", w, 40)
		rows := strings.Split(h.screen(), "\n")
		foot := rows[len(rows)-1]
		for _, k := range []string{"? help", "i attach", "q stop run and quit"} {
			if w >= 80 {
				contains(t, foot, k)
			} else {
				contains(t, foot, strings.Fields(k)[0])
			}
		}
	}
}

// TestHelpExplainsTheCounters: help says what the status bar's ✓ ? ✗
// count, at every size (scrolled to its end on a small screen), whole.
func TestHelpExplainsTheCounters(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {80, 24}, {120, 40}} {
		h := newThemedHarness(t, "nocolor", size[0], size[1])
		h.press("?")
		for i := 0; i < 60; i++ {
			h.press("down")
		}
		s := h.screen()
		for _, want := range []string{"status bar counters", "✓N  requests allowed", "?N  requests the policy could not", "✗N  requests denied", "a timeout"} {
			contains(t, s, want)
		}
	}
}
