package tui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current views")

// golden compares got with testdata/name.golden (or rewrites it with -update).
// The files hold the exact frames, escapes included, so a theme change shows.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -run %s -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Fatalf("view differs from %s (run with -update if the change is intended; escapes stripped below, they may be all that differs)\n--- want\n%s\n--- got\n%s", path, ansi.Strip(string(want)), ansi.Strip(got))
	}
}

func TestGoldenViews(t *testing.T) {
	sizes := [][2]int{{80, 24}, {120, 40}, {200, 60}}
	for _, theme := range []string{"dark", "light", "high-contrast", "nocolor"} {
		for _, sz := range sizes {
			name := fmt.Sprintf("lanes_%s_%dx%d", theme, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				h := newThemedHarness(t, theme, sz[0], sz[1])
				h.send(eventsMsg(demoEvents()))
				p := shellPrompt("npm run test", "npm", "run", "test")
				p.Recommendation = "supervisor: allow — the project's own test script"
				h.openCard(p)
				h.send(promptMsg{shellPrompt("make lint", "make", "lint")})
				got := h.render()
				if n := strings.Count(got, "\n") + 1; n != sz[1] {
					t.Fatalf("view has %d rows, want %d", n, sz[1])
				}
				golden(t, name, got)
			})
		}
	}
}

func TestGoldenScreens(t *testing.T) {
	screens := []struct {
		name string
		do   func(h *harness)
	}{
		{"timeline", func(h *harness) { h.press("t") }},
		{"zoom_tool", func(h *harness) { h.press("tab", "z") }},
		{"help", func(h *harness) { h.press("?") }},
		{"quit_confirm", func(h *harness) { h.press("q") }},
		{"remember", func(h *harness) {
			h.m.opts.Preview = chainPreview(h.t) // the run's chain: built-in rules
			h.s.Past = []approvals.Request{{Kind: "shell", Command: "mytool run lint"}, {Kind: "shell", Command: "mytool build"}}
			h.openCard(shellPrompt("mytool run test", "mytool", "run", "test"))
			h.press("r")
			h.send(pastMsg(h.s.PastRequests()))
			h.press("down", "down")
		}},
		{"attached", func(h *harness) { h.press("i") }},
	}
	for _, sc := range screens {
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("%s_%dx%d", sc.name, sz[0], sz[1])
			t.Run(name, func(t *testing.T) {
				h := newThemedHarness(t, "nocolor", sz[0], sz[1])
				h.send(eventsMsg(demoEvents()))
				sc.do(h)
				golden(t, name, h.render())
			})
		}
	}
}

func TestGoldenFullScreenCoder(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		name := fmt.Sprintf("fullscreen_%dx%d", sz[0], sz[1])
		t.Run(name, func(t *testing.T) {
			info := testInfo()
			info.FullScreenCoder = true
			h := newHarness(t, info, "dark", sz[0], sz[1])
			h.m.opts.NoColor = true
			h.m.applyTheme()
			// a coder drawing its own screen: alt screen, a box, a prompt
			h.send(eventsMsg{ev(1, "coder", "output",
				"\x1b[?1049h\x1b[2J\x1b[H\x1b[1m╭──────────────╮\x1b[0m\r\n│ \x1b[36mClaude Code\x1b[0m  │\r\n╰──────────────╯\r\n\r\n> add a health endpoint\x1b[5;3H", nil)})
			golden(t, name, h.render())
			s := h.screen()
			contains(t, s, "│ Claude Code  │")
			notContains(t, s, "1049h")
		})
	}
}

// newThemedHarness is newHarness with "nocolor" meaning NO_COLOR.
func newThemedHarness(t *testing.T, theme string, w, h int) *harness {
	if theme == "nocolor" {
		hs := newHarness(t, testInfo(), "dark", w, h)
		hs.m.opts.NoColor = true
		hs.m.applyTheme()
		return hs
	}
	return newHarness(t, testInfo(), theme, w, h)
}
