package vterm

import "github.com/charmbracelet/x/ansi"

// esc handles an escape sequence.
func (t *Terminal) esc(cmd ansi.Cmd) {
	t.flushGrapheme()
	s := t.scr
	if inter := cmd.Intermediate(); inter != 0 {
		if inter < '(' || inter > '+' { // SCS designates G0 to G3
			return
		}
		g := int(inter - '(')
		switch cmd.Final() {
		case 'A':
			t.charsets[g] = ukCharset
		case 'B':
			t.charsets[g] = nil
		case '0':
			t.charsets[g] = specialDrawing
		}
		return
	}
	switch cmd.Final() {
	case '=': // DECKPAM
		t.setMode(dec(ansi.ModeNumericKeypad), ansi.ModeSet)
	case '>': // DECKPNM
		t.setMode(dec(ansi.ModeNumericKeypad), ansi.ModeReset)
	case '7': // DECSC
		s.saved = s.cur
	case '8': // DECRC
		s.cur = s.saved
	case 'D': // IND
		t.index()
	case 'H': // HTS
		t.setTab(s.cur.x, true)
	case 'M': // RI
		t.reverseIndex()
	case 'c': // RIS
		t.fullReset()
	case 'n': // LS2
		t.gl = 2
	case 'o': // LS3
		t.gl = 3
	}
}

// fullReset is RIS: both screens cleared, modes, tab stops and character
// sets as at the start. The colours set by OSC stay.
func (t *Terminal) fullReset() {
	t.scrs[0].reset()
	t.scrs[1].reset()
	t.tabs = defaultTabs(t.scr.w)
	t.resetModes()
	t.gl, t.gsingle = 0, 0
	t.charsets = [4]*charset{}
	t.phantom = false
	t.grapheme = t.grapheme[:0]
	t.lastChar = 0
}
