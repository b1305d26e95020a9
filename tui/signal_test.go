package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func rawOf(cmd tea.Cmd) string {
	if cmd == nil {
		return ""
	}
	raw, _ := cmd().(tea.RawMsg)
	s, _ := raw.Msg.(string)
	return s
}

// TestACardSaysItWaits: a card that arrives rings the bell once (a burst
// rings once), the title counts the waiting cards, and the count leaves
// the title when the queue is empty again.
func TestACardSaysItWaits(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	base := h.m.title()
	if strings.Contains(base, "waiting") {
		t.Fatalf("the title says something waits before any card: %q", base)
	}
	h.m.enqueue(shellPrompt("git push", "git", "push"))
	if got := h.m.title(); got != "⏳ 1 waiting · "+base {
		t.Fatalf("title with one card = %q", got)
	}
	h.m.enqueue(shellPrompt("make", "make"))
	if got := h.m.title(); !strings.HasPrefix(got, "⏳ 2 waiting · ") {
		t.Fatalf("title with two cards = %q", got)
	}
	h.m.queue = nil
	if got := h.m.title(); got != base {
		t.Fatalf("title after the cards = %q, want %q", got, base)
	}

	h.m.lastRing = time.Time{}
	if got := rawOf(h.m.cardArrived()); got != "\a" {
		t.Fatalf("a card rang %q, want the bell", got)
	}
	if got := rawOf(h.m.cardArrived()); got != "" {
		t.Fatalf("a second card in the same burst rang again: %q", got)
	}
	h.clk.Add(ringQuiet)
	if got := rawOf(h.m.cardArrived()); got != "\a" {
		t.Fatalf("a card after a quiet spell did not ring: %q", got)
	}
}

// TestSignalSwitchesOff: [notify] bell = false and title = false are kept.
func TestSignalSwitchesOff(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.m.opts.Signal = Signal{NoBell: true, NoTitle: true, Desktop: "off"}
	h.m.enqueue(shellPrompt("git push", "git", "push"))
	if strings.Contains(h.m.title(), "waiting") {
		t.Fatalf("title = %q with the title signal off", h.m.title())
	}
	h.m.lastRing = time.Time{}
	if got := rawOf(h.m.cardArrived()); got != "" {
		t.Fatalf("rang %q with the bell off", got)
	}
}

// TestDesktopNotice: OSC 9 or 777 by the terminal, wrapped for tmux, and
// no control character of the text ever reaches the terminal.
func TestDesktopNotice(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		mode string
		env  func(string) string
		want string
	}{
		{"auto", env("TERM_PROGRAM", "iTerm.app"), "\x1b]9;hi\x07"},
		{"auto", env("TERM", "foot"), "\x1b]777;notify;Sentinel;hi\x07"},
		{"auto", env("TERM", "xterm-256color"), ""},
		{"off", env("TERM_PROGRAM", "WezTerm"), ""},
		{"osc9", env("TMUX", "/tmp/x"), "\x1bPtmux;\x1b\x1b]9;hi\x07\x1b\\"},
	}
	for _, c := range cases {
		if got := desktopNotice(c.mode, "hi", c.env); got != c.want {
			t.Errorf("desktopNotice(%q) = %q, want %q", c.mode, got, c.want)
		}
	}
	got := desktopNotice("osc777", "a\x1b]2;x\x07\x9bb;c", env())
	if strings.Count(got, "\x1b") != 1 || strings.Count(got, "\x07") != 1 || strings.ContainsRune(got, 0x9b) {
		t.Fatalf("control characters of the text reached the terminal: %q", got)
	}
}
