package tui

import (
	"strings"
	"testing"
)

// The coder pane shows the live screen only: no line scrolled off either of
// the emulator's screens is kept (x/vt's scrollback copied each one, and its
// alternate screen, where Claude Code draws, kept 10,000).
func TestTheCoderPaneKeepsNoScrollbackOnEitherScreen(t *testing.T) {
	term := newCoderTerm(120, 40, func([]byte) {}, "")
	defer term.close()
	lines := strings.Repeat("a line of test output\r\n", 200)
	term.write(lines+"\x1b[?1049h"+lines+"\x1b[2J"+"\x1b[?1049l"+lines, 0)
	term.flush()
	term.mu.Lock()
	defer term.mu.Unlock()
	if n := term.emu.ScrollbackLen(); n != 0 {
		t.Errorf("the main screen kept %d lines of scrollback", n)
	}
	if !dropScrollback(term.emu) {
		t.Error("the emulator's screens were not reached: the alternate screen keeps its scrollback")
	}
}
