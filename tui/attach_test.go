package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestNoKeyReachesCoderOutsideAttach(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.send(eventsMsg(demoEvents()))
	// every normal-mode key, plus text that would mean something to a coder
	h.press("j", "k", "g", "G", "tab", "t", "t", "z", "z", "n", "N", "x", "y", "1", "enter", "esc", "?", "?")
	h.press("m")
	h.typeText("hello")
	h.press("enter")
	h.press("/")
	h.typeText("health")
	h.press("enter")
	p := shellPrompt("npm run test", "npm", "run", "test")
	h.openCard(p)
	h.press("a")
	if k := h.coderKeys(); k != "" {
		t.Fatalf("keys reached the coder outside attach mode: %q", k)
	}
}

func TestAttachForwardsKeysUntilLeaveKey(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.press("i")
	contains(t, h.screen(), "ATTACHED")
	h.typeText("ls")
	h.press("enter", "q", "esc")
	h.send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	h.press("ctrl+]")
	notContains(t, h.screen(), "ATTACHED")
	h.typeText("zz")
	if got, want := h.coderKeys(), "ls\rq\x1b\x03"; got != want {
		t.Fatalf("coder got %q, want %q (ctrl+] and later keys must not be sent)", got, want)
	}
}

func TestCardDetachesAndItsKeysNeverReachCoder(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.press("i")
	h.typeText("x")
	p := shellPrompt("npm run test", "npm", "run", "test")
	h.send(promptMsg{p})
	notContains(t, h.screen(), "ATTACHED:")
	h.press("a") // inside the guard: ignored, and not sent to the coder
	h.clk.Add(DefaultGuard)
	h.press("a")
	if _, ok := answered(p); !ok {
		t.Fatal("card not answered")
	}
	if got := h.coderKeys(); got != "x" {
		t.Fatalf("coder got %q, want only the key typed while attached", got)
	}
}

func TestAttachRefusedWhileApprovalPending(t *testing.T) {
	h := newHarness(t, testInfo(), "dark", 120, 40)
	h.openCard(shellPrompt("make", "make"))
	h.press("i")
	contains(t, h.screen(), "command  make") // still the card, not attached
	notContains(t, h.screen(), "ATTACHED")
	h.typeText("ab")
	if k := h.coderKeys(); k != "" {
		t.Fatalf("keys reached the coder: %q", k)
	}
}

func TestFullScreenCoderRendersScreenNotEscapes(t *testing.T) {
	info := testInfo()
	info.FullScreenCoder = true
	h := newHarness(t, info, "dark", 120, 40)
	// clear, move to row 3 col 5, write, then ask for the cursor position
	h.send(eventsMsg{ev(1, "coder", "output", "\x1b[2J\x1b[3;5HHello from the coder\x1b[6n", nil)})
	s := h.screen()
	contains(t, s, "    Hello from the coder")
	notContains(t, s, "[3;5H")
	// the emulator's reply to the cursor query reaches the coder
	waitFor(t, func() bool { return string(h.s.Keys()) == "\x1b[3;25R" }, func() string { return string(h.s.Keys()) })
}

func TestCoderSizedToPane(t *testing.T) {
	info := testInfo()
	info.FullScreenCoder = true
	h := newHarness(t, info, "dark", 120, 40)
	cases := []struct {
		name string
		do   func()
		want [2]int
	}{
		{"grid", func() {}, [2]int{59, 18}},
		{"zoomed", func() { h.press("z") }, [2]int{120, 37}},
		{"narrow stacked", func() { h.press("z"); h.send(tea.WindowSizeMsg{Width: 80, Height: 24}) }, [2]int{80, 9}},
	}
	for _, c := range cases {
		c.do()
		h.m.coderSize = [2]int{} // force the resize command to be issued again
		cmd := h.m.syncCoderSize()
		if cmd == nil {
			t.Fatalf("%s: no resize issued", c.name)
		}
		cmd()
		sizes := h.s.Sizes()
		if got := sizes[len(sizes)-1]; got != c.want {
			t.Fatalf("%s: coder sized %v, want %v", c.name, got, c.want)
		}
		if w, hh := h.m.term.size(); w != c.want[0] || hh != c.want[1] {
			t.Fatalf("%s: emulator is %dx%d, want %v", c.name, w, hh, c.want)
		}
	}
}
