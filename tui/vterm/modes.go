package vterm

import "github.com/charmbracelet/x/ansi"

// mode names a mode without boxing its number in an interface (as
// ansi.Mode does, allocating for every mode set).
type mode struct {
	n     int
	isDEC bool
}

func dec(m ansi.DECMode) mode       { return mode{int(m), true} }
func ansiMode(m ansi.ANSIMode) mode { return mode{int(m), false} }

// defaultModes are the modes a terminal starts (and RIS resets) with.
var defaultModes = []struct {
	mode mode
	set  bool
}{
	{dec(ansi.ModeCursorKeys), false}, {dec(ansi.ModeOrigin), false}, {dec(ansi.ModeAutoWrap), true},
	{dec(ansi.ModeMouseX10), false}, {ansiMode(ansi.ModeLineFeedNewLine), false}, {dec(ansi.ModeTextCursorEnable), true},
	{dec(ansi.ModeNumericKeypad), false}, {dec(ansi.ModeLeftRightMargin), false}, {dec(ansi.ModeMouseNormal), false},
	{dec(ansi.ModeMouseHighlight), false}, {dec(ansi.ModeMouseButtonEvent), false}, {dec(ansi.ModeMouseAnyEvent), false},
	{dec(ansi.ModeFocusEvent), false}, {dec(ansi.ModeMouseExtSgr), false}, {dec(ansi.ModeAltScreen), false},
	{dec(ansi.ModeSaveCursor), false}, {dec(ansi.ModeAltScreenSaveCursor), false}, {dec(ansi.ModeBracketedPaste), false},
}

// maxModes bounds the modes remembered: past it, a mode never set before
// is not remembered (and reported as not recognised), so a coder setting
// ever new mode numbers cannot grow the terminal.
const maxModes = 1 << 10

func (t *Terminal) resetModes() {
	t.modes = make(map[mode]ansi.ModeSetting, len(defaultModes))
	for _, m := range defaultModes {
		t.setMode(m.mode, setting(m.set))
	}
}

func setting(set bool) ansi.ModeSetting {
	if set {
		return ansi.ModeSet
	}
	return ansi.ModeReset
}

func (t *Terminal) isSet(m mode) bool { return t.modes[m].IsSet() }

// setModes is SM/RM (ansi) or DECSET/DECRST.
func (t *Terminal) setModes(params ansi.Params, set, isANSI bool) {
	for _, p := range params {
		n := p.Param(-1)
		if n == -1 {
			continue
		}
		m := mode{n, !isANSI}
		if s := t.modes[m]; s == ansi.ModePermanentlySet || s == ansi.ModePermanentlyReset {
			continue
		}
		t.setMode(m, setting(set))
	}
}

func (t *Terminal) setMode(m mode, s ansi.ModeSetting) {
	if _, ok := t.modes[m]; ok || len(t.modes) < maxModes {
		t.modes[m] = s
	}
	on := s.IsSet()
	switch m {
	case dec(ansi.ModeOrigin):
		t.origin = on
	case dec(ansi.ModeAutoWrap):
		t.autowrap = on
	case ansiMode(ansi.ModeLineFeedNewLine):
		t.newline = on
	case dec(ansi.ModeTextCursorEnable):
		t.scr.cur.hidden = !on
	case dec(ansi.ModeAltScreen):
		t.setAltScreen(on)
	case dec(ansi.ModeSaveCursor):
		if on {
			t.scr.saved = t.scr.cur
		} else {
			t.scr.cur = t.scr.saved
		}
	case dec(ansi.ModeAltScreenSaveCursor):
		if on {
			t.scr.saved = t.scr.cur
		}
		t.setAltScreen(on)
	case dec(ansi.ModeInBandResize):
		if on {
			t.reply(ansi.InBandResize(t.scr.h, t.scr.w, 0, 0))
		}
	}
}

// setAltScreen switches to the alternate screen, cleared, its cursor the
// main screen's moved home; or back to the main screen as it was.
func (t *Terminal) setAltScreen(on bool) {
	if on == t.AltScreen() {
		return
	}
	if !on {
		t.scr = &t.scrs[0]
		return
	}
	t.scr = &t.scrs[1]
	t.scrs[1].cur = t.scrs[0].cur
	t.scrs[1].clear()
	t.setCursor(0, 0)
}

// requestMode is DECRQM: it reports how a mode is set.
func (t *Terminal) requestMode(params ansi.Params, isANSI bool) {
	n, _, ok := params.Param(0, 0)
	if !ok || n == 0 {
		return
	}
	var m ansi.Mode = ansi.DECMode(n)
	if isANSI {
		m = ansi.ANSIMode(n)
	}
	t.reply(ansi.ReportMode(m, t.modes[mode{n, !isANSI}]))
}
