package vterm

import "github.com/charmbracelet/x/ansi"

// csi handles a control sequence.
func (t *Terminal) csi(cmd ansi.Cmd, params ansi.Params) {
	t.flushGrapheme()
	s := t.scr
	param := func(i, def int) int { n, _, _ := params.Param(i, def); return n }
	// count is a count or distance parameter: missing or 0 means 1, as in
	// xterm (x/vt takes 0 as none).
	count := func() int { return max(param(0, 1), 1) }
	switch cmd.Prefix() {
	case 0:
	case '?':
		t.privateCSI(cmd, params)
		return
	case '>':
		if cmd.Final() == 'c' && cmd.Intermediate() == 0 && param(0, 0) == 0 {
			t.reply(ansi.SecondaryDeviceAttributes(1, 10, 0)) // DA2
		}
		return
	default:
		return
	}
	switch cmd.Intermediate() {
	case 0:
	case '$':
		if cmd.Final() == 'p' { // DECRQM, ANSI modes
			t.requestMode(params, true)
		}
		return
	default: // DECSCUSR (cursor style) among others: nothing the pane shows
		return
	}
	switch cmd.Final() {
	case '@': // ICH
		s.insertCells(count(), t.blankCell())
	case 'A': // CUU
		t.moveCursor(0, -count())
	case 'B': // CUD
		t.moveCursor(0, count())
	case 'C': // CUF
		t.moveCursor(count(), 0)
	case 'D': // CUB
		t.moveCursor(-count(), 0)
	case 'E': // CNL
		t.moveCursor(0, count())
		t.carriageReturn()
	case 'F': // CPL
		t.moveCursor(0, -count())
		t.carriageReturn()
	case 'G': // CHA
		t.setCursor(param(0, 1)-1, s.cur.y)
	case 'H': // CUP
		row, col := max(param(0, 1), 1), max(param(1, 1), 1)
		t.setCursorPosition(min(s.w-1, col-1), min(s.h-1, row-1))
	case 'I': // CHT
		t.nextTab(count())
	case 'J': // ED
		t.eraseDisplay(param(0, 0))
	case 'K': // EL
		t.eraseLine(param(0, 0))
	case 'L': // IL
		if s.insertLinesAtCursor(count(), t.blankCell()) {
			s.setCursor(0, s.cur.y, true)
		}
	case 'M': // DL
		if s.deleteLinesAtCursor(count(), t.blankCell()) {
			s.setCursor(0, s.cur.y, true)
		}
	case 'P': // DCH
		s.deleteCells(count(), t.blankCell())
	case 'S': // SU
		s.scrollUp(count(), t.blankCell())
	case 'T': // SD
		s.scrollDown(count(), t.blankCell())
	case 'X': // ECH
		t.eraseChars(param(0, 1))
	case 'Z': // CBT
		t.prevTab(count())
	case '`': // HPA
		t.setCursorPosition(min(s.w-1, param(0, 1)-1), s.cur.y)
	case 'a': // HPR
		t.setCursorPosition(min(s.w-1, s.cur.x+count()), s.cur.y)
	case 'b': // REP
		t.repeat(count())
	case 'c': // DA1
		if param(0, 0) == 0 {
			t.reply(ansi.PrimaryDeviceAttributes(62, 1, 6, 22))
		}
	case 'd': // VPA
		t.setCursorPosition(s.cur.x, min(s.h-1, param(0, 1)-1))
	case 'e': // VPR
		t.setCursorPosition(s.cur.x, min(s.h-1, s.cur.y+count()))
	case 'f': // HVP
		t.setCursor(min(s.w-1, param(1, 1)-1), min(s.h-1, param(0, 1)-1))
	case 'g': // TBC
		switch param(0, 0) {
		case 0:
			t.setTab(s.cur.x, false)
		case 3:
			clear(t.tabs)
		}
	case 'h', 'l': // SM, RM
		t.setModes(params, cmd.Final() == 'h', true)
	case 'm': // SGR
		t.sgr(params)
	case 'n': // DSR
		switch n, _, ok := params.Param(0, 1); {
		case !ok:
		case n == 5:
			t.reply(ansi.DeviceStatusReport(ansi.DECStatusReport(0)))
		case n == 6:
			t.reply(ansi.CursorPositionReport(s.cur.y+1, s.cur.x+1))
		}
	case 'r': // DECSTBM
		top, bottom, ok := margins(param(0, 1), param(1, s.h), s.h)
		if !ok {
			return
		}
		s.scroll.top, s.scroll.bottom = top, bottom
		t.setCursorPosition(0, 0)
	case 's':
		if !t.isSet(dec(ansi.ModeLeftRightMargin)) { // SCOSC
			s.saved = s.cur
			return
		}
		left, right, ok := margins(param(0, 1), param(1, s.w), s.w) // DECSLRM
		if !ok {
			return
		}
		s.scroll.left, s.scroll.right = left, right
		t.setCursorPosition(0, 0)
	}
}

// margins reads a DECSTBM or DECSLRM pair (1-based, the last inclusive)
// on a side of size cells as a 0-based first and an exclusive end, and
// whether it makes a region of two or more. A last margin of 0 or past the
// screen is the screen's last (x/vt takes one past the screen as given).
func margins(first, last, size int) (int, int, bool) {
	first = max(first, 1)
	if last < 1 {
		last = size
	}
	last = min(last, size)
	return first - 1, last, first < last
}

// privateCSI handles the CSI ? sequences.
func (t *Terminal) privateCSI(cmd ansi.Cmd, params ansi.Params) {
	s := t.scr
	switch inter, final := cmd.Intermediate(), cmd.Final(); {
	case inter == '$' && final == 'p': // DECRQM, DEC modes
		t.requestMode(params, false)
	case inter != 0:
	case final == 'h' || final == 'l': // DECSET, DECRST
		t.setModes(params, final == 'h', false)
	case final == 'n': // DECXCPR
		if n, _, ok := params.Param(0, 1); ok && n == 6 {
			t.reply(ansi.ExtendedCursorPositionReport(s.cur.y+1, s.cur.x+1, 0))
		}
	case final == 'W': // DECST8C
		if len(params) == 1 && params[0] == 5 {
			t.tabs = defaultTabs(s.w)
		}
	}
}

// eraseDisplay is ED.
func (t *Terminal) eraseDisplay(n int) {
	s := t.scr
	x, y := s.cur.x, s.cur.y
	switch n {
	case 0: // from the cursor to the end of the screen
		c := t.blankCell()
		s.fill(y, x, s.w, c)
		for yy := y + 1; yy < s.h; yy++ {
			s.fill(yy, 0, s.w, c)
		}
	case 1: // from the start of the screen through the cursor's line
		c := t.blankCell()
		for yy := 0; yy <= y && yy < s.h; yy++ {
			s.fill(yy, 0, s.w, c)
		}
	case 2, 3: // all of it, with no background
		for yy := range s.h {
			s.fill(yy, 0, s.w, blank)
		}
	}
}

// eraseLine is EL.
func (t *Terminal) eraseLine(n int) {
	s := t.scr
	switch n {
	case 0:
		t.eraseChars(s.w - s.cur.x)
	case 1:
		s.fill(s.cur.y, 0, s.cur.x+1, t.blankCell())
	case 2:
		s.fill(s.cur.y, 0, s.w, t.blankCell())
	}
}

// eraseChars is ECH: n cells from the cursor become blanks.
func (t *Terminal) eraseChars(n int) {
	if n <= 0 {
		n = 1
	}
	s := t.scr
	s.fill(s.cur.y, s.cur.x, s.cur.x+min(n, s.w), t.blankCell())
	t.phantom = false
}
