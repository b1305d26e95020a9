package vterm

import "github.com/charmbracelet/x/ansi"

// execute handles a C0 or C1 control character.
func (t *Terminal) execute(b byte) {
	t.flushGrapheme()
	switch b {
	case ansi.BS:
		t.moveCursor(-1, 0)
	case ansi.HT:
		t.nextTab(1)
	case ansi.LF, ansi.VT, ansi.FF:
		t.linefeed()
	case ansi.CR:
		t.carriageReturn()
	case ansi.HTS:
		t.setTab(t.scr.cur.x, true)
	case ansi.RI:
		t.reverseIndex()
	case ansi.IND:
		t.index()
	case ansi.SS2:
		t.gsingle = 2
	case ansi.SS3:
		t.gsingle = 3
	}
}

// linefeed is index, and a carriage return too in newline mode (LNM).
func (t *Terminal) linefeed() {
	t.index()
	if t.newline {
		t.carriageReturn()
	}
}

// index moves the cursor down a line, scrolling the region up at its
// bottom margin.
func (t *Terminal) index() {
	s := t.scr
	x, y, r := s.cur.x, s.cur.y, s.scroll
	if y == r.bottom-1 && x >= r.left && x < r.right {
		s.scrollUp(1, t.blankCell())
	} else if y < r.bottom-1 || !r.contains(x, y) {
		s.moveCursor(0, 1)
	}
	t.phantom = false
}

// reverseIndex moves the cursor up a line, scrolling the region down at its
// top margin.
func (t *Terminal) reverseIndex() {
	s := t.scr
	x, y, r := s.cur.x, s.cur.y, s.scroll
	if y == r.top && x >= r.left && x < r.right {
		s.scrollDown(1, t.blankCell())
	} else {
		s.moveCursor(0, -1)
	}
}

// carriageReturn moves the cursor to the left margin (origin mode), or to
// the left margin when in the scroll region, else to column 0.
func (t *Terminal) carriageReturn() {
	s := t.scr
	switch {
	case t.origin:
		s.setCursor(0, s.cur.y, true)
	case s.scroll.contains(s.cur.x, s.cur.y):
		s.setCursor(s.scroll.left, s.cur.y, false)
	default:
		s.setCursor(0, s.cur.y, false)
	}
	t.phantom = false
}

func (t *Terminal) moveCursor(dx, dy int) {
	t.scr.moveCursor(dx, dy)
	t.phantom = false
}

func (t *Terminal) setCursor(x, y int) {
	t.scr.setCursor(x, y, false)
	t.phantom = false
}

// setCursorPosition is CUP: relative to the scroll region in origin mode.
func (t *Terminal) setCursorPosition(x, y int) {
	t.scr.setCursor(x, y, t.origin)
	t.phantom = false
}

// nextTab moves the cursor to the n-th next tab stop, no further than the
// scroll region's right margin.
func (t *Terminal) nextTab(n int) {
	s := t.scr
	x := s.cur.x
	for range min(n, s.w) {
		ts := t.findTab(x, 1)
		if ts < x {
			break
		}
		x = ts
	}
	if x >= s.scroll.right {
		x = min(s.scroll.right-1, s.w-1)
	}
	s.setCursor(x, s.cur.y, false)
}

// prevTab moves the cursor to the n-th previous tab stop, no further than
// the left margin in origin mode.
func (t *Terminal) prevTab(n int) {
	s := t.scr
	x := s.cur.x
	left := 0
	if t.origin {
		left = s.scroll.left
	}
	for range min(n, s.w) {
		ts := t.findTab(x, -1)
		if ts > x {
			break
		}
		x = ts
	}
	x = max(x, left)
	s.setCursor(x, s.cur.y, false)
}

// findTab returns the next tab stop after col (dir 1) or before it (dir
// -1), or the screen's edge.
func (t *Terminal) findTab(col, dir int) int {
	w := len(t.tabs)
	for {
		if dir > 0 && col >= w-1 || dir < 0 && col < 1 {
			return col
		}
		col += dir
		if col >= 0 && col < w && t.tabs[col] {
			return col
		}
	}
}

// setTab sets or clears the tab stop at column x.
func (t *Terminal) setTab(x int, on bool) {
	if x >= 0 && x < len(t.tabs) {
		t.tabs[x] = on
	}
}
