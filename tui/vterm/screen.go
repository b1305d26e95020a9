package vterm

// cursor is a screen's cursor with the pen it draws with; saving the cursor
// saves all of it.
type cursor struct {
	x, y   int
	penIdx uint16 // the pen: its index in the style table
	hidden bool
}

// region is the scroll region: rows [top, bottom), columns [left, right).
type region struct{ left, top, right, bottom int }

func (r region) contains(x, y int) bool {
	return x >= r.left && x < r.right && y >= r.top && y < r.bottom
}

// screen is one of the terminal's two screens.
type screen struct {
	rows       [][]cell
	w, h       int
	cur, saved cursor
	scroll     region
}

func newScreen(w, h int) screen {
	s := screen{w: w, h: h}
	s.rows = make([][]cell, h)
	for y := range s.rows {
		s.rows[y] = newRow(w)
	}
	s.scroll = region{0, 0, w, h}
	return s
}

func newRow(w int) []cell {
	row := make([]cell, w)
	for x := range row {
		row[x] = blank
	}
	return row
}

// reset clears the screen and homes its cursor, forgetting the saved one
// and the scroll region.
func (s *screen) reset() {
	s.clear()
	s.cur, s.saved = cursor{}, cursor{}
	s.scroll = region{0, 0, s.w, s.h}
}

func (s *screen) clear() {
	for _, row := range s.rows {
		for x := range row {
			row[x] = blank
		}
	}
}

// resize keeps the top-left of the screen, filling new columns and rows
// with blanks; the scroll region becomes the whole screen.
func (s *screen) resize(w, h int) {
	if w != s.w {
		for y, row := range s.rows {
			if w < s.w {
				s.rows[y] = row[:w:w]
				continue
			}
			nr := make([]cell, w)
			copy(nr, row)
			for x := s.w; x < w; x++ {
				nr[x] = blank
			}
			s.rows[y] = nr
		}
	}
	if h < s.h {
		s.rows = s.rows[:h]
	}
	for len(s.rows) < h {
		s.rows = append(s.rows, newRow(w))
	}
	s.w, s.h = w, h
	s.scroll = region{0, 0, w, h}
}

// set writes c at x of row y the way a cell buffer must: a wide character
// partly overwritten leaves spaces in its style, a wide character at the
// right edge that does not fit becomes spaces in its style, and a wide
// character marks the columns it covers with placeholders.
func (s *screen) set(y, x int, c cell) {
	if y < 0 || y >= s.h || x < 0 || x >= s.w {
		return
	}
	s.unset(s.rows[y], x)
	s.put(y, x, c)
}

// unset empties what is left of a wide character writing column x cuts.
func (s *screen) unset(row []cell, x int) {
	if prev := row[x]; prev.w > 1 {
		for j := 0; j < int(prev.w) && x+j < s.w; j++ {
			row[x+j] = emptied(prev)
		}
	} else if prev.w == 0 {
		s.unwide(row, x)
	}
}

// put writes c at x of row y, after unset.
func (s *screen) put(y, x int, c cell) {
	row := s.rows[y]
	row[x] = c
	if cw := int(c.w); x+cw > s.w {
		for i := 0; i < cw && x+i < s.w; i++ {
			row[x+i] = emptied(c)
		}
	} else {
		for j := 1; j < cw; j++ {
			row[x+j] = cell{}
		}
	}
}

// unwide empties the wide character whose placeholder is at x, if any.
func (s *screen) unwide(row []cell, x int) {
	for j := 1; x-j >= 0; j++ {
		if wide := row[x-j]; wide.w > 1 && j < int(wide.w) {
			for k := 0; k < int(wide.w) && x-j+k < len(row); k++ {
				row[x-j+k] = emptied(wide)
			}
			return
		}
	}
}

// fill writes c (one column wide) to columns [a, b) of row y, as set would
// one column at a time, without the per-column cost.
func (s *screen) fill(y, a, b int, c cell) {
	a, b = max(a, 0), min(b, s.w)
	if y < 0 || y >= s.h || a >= b {
		return
	}
	row := s.rows[y]
	s.cut(row, a, b)
	seg := row[a:b]
	for i := range seg {
		seg[i] = c
	}
}

// cut empties what is left of the wide characters that writing columns
// [a, b) of row (a < b) overwrites in part: one whose placeholder is at a,
// one that starts at b-1.
func (s *screen) cut(row []cell, a, b int) {
	if row[a].w == 0 {
		s.unwide(row, a)
	}
	if last := row[b-1]; last.w > 1 {
		for j := 1; j < int(last.w) && b-1+j < s.w; j++ {
			row[b-1+j] = emptied(last)
		}
	}
}

// fillRows fills rows [top, bottom) across the scroll region's columns.
func (s *screen) fillRows(top, bottom int, c cell) {
	for y := top; y < bottom; y++ {
		s.fill(y, s.scroll.left, s.scroll.right, c)
	}
}

// deleteLines removes n lines at row y of the scroll region, moving the
// lines below up and blanking (with c) the ones uncovered at the bottom.
func (s *screen) deleteLines(y, n int, c cell) {
	r := s.scroll
	if n <= 0 {
		return
	}
	n = min(n, r.bottom-y)
	if r.left == 0 && r.right == s.w {
		rotate(s.rows[y:r.bottom], n)
	} else {
		for dst := y; dst < r.bottom-n; dst++ {
			copy(s.rows[dst][r.left:r.right], s.rows[dst+n][r.left:r.right])
		}
	}
	s.fillRows(r.bottom-n, r.bottom, c)
}

// insertLines inserts n lines at row y of the scroll region, moving the
// lines below down (those past the bottom margin are lost); the inserted
// lines are blanked with c.
func (s *screen) insertLines(y, n int, c cell) {
	r := s.scroll
	if n <= 0 {
		return
	}
	n = min(n, r.bottom-y)
	if r.left == 0 && r.right == s.w {
		rotate(s.rows[y:r.bottom], len(s.rows[y:r.bottom])-n)
	} else {
		for dst := r.bottom - 1; dst >= y+n; dst-- {
			copy(s.rows[dst][r.left:r.right], s.rows[dst-n][r.left:r.right])
		}
	}
	s.fillRows(y, y+n, c)
}

// rotate moves rows[n:] to the front of rows and rows[:n] to its end,
// moving row headers only.
func rotate(rows [][]cell, n int) {
	if n <= 0 || n >= len(rows) {
		return
	}
	if n <= len(rotateBuf{}) { // a scroll by a line or a few: one move
		var buf rotateBuf
		copy(buf[:], rows[:n])
		copy(rows, rows[n:])
		copy(rows[len(rows)-n:], buf[:n])
		return
	}
	if m := len(rows) - n; m <= len(rotateBuf{}) {
		var buf rotateBuf
		copy(buf[:], rows[n:])
		copy(rows[m:], rows[:n])
		copy(rows, buf[:m])
		return
	}
	reverse(rows[:n])
	reverse(rows[n:])
	reverse(rows)
}

type rotateBuf [8][]cell

func reverse(rows [][]cell) {
	for i, j := 0, len(rows)-1; i < j; i, j = i+1, j-1 {
		rows[i], rows[j] = rows[j], rows[i]
	}
}

// insertCells inserts n cells (c) at the cursor, pushing the rest of the
// row within the scroll region right.
func (s *screen) insertCells(n int, c cell) {
	x, y, r := s.cur.x, s.cur.y, s.scroll
	if n <= 0 || y < r.top || y >= r.bottom || y >= s.h || x < r.left || x >= r.right || x >= s.w {
		return
	}
	n = min(n, r.right-x)
	row := s.rows[y]
	for i := r.right - 1; i >= x+n && i-n >= r.left; i-- {
		row[i] = row[i-n]
	}
	s.fill(y, x, min(x+n, r.right), c)
}

// deleteCells deletes n cells at the cursor, pulling the rest of the row
// within the scroll region left and blanking (with c) its end.
func (s *screen) deleteCells(n int, c cell) {
	x, y, r := s.cur.x, s.cur.y, s.scroll
	if n <= 0 || y < r.top || y >= r.bottom || y >= s.h || x < r.left || x >= r.right || x >= s.w {
		return
	}
	n = min(n, r.right-x)
	row := s.rows[y]
	for i := x; i < r.right-n; i++ {
		// The cell moved is read after the cut at i is emptied, as x/vt
		// does: a wide character moved onto its own cut is lost.
		s.unset(row, i)
		s.put(y, i, row[i+n])
	}
	for i := r.right - n; i < r.right; i++ {
		s.set(y, i, c)
	}
}

// setCursor moves the cursor to x, y, clamped to the screen or, with
// margins, taken relative to the scroll region and clamped to it.
func (s *screen) setCursor(x, y int, margins bool) {
	if !margins {
		s.cur.y = clamp(y, 0, s.h-1)
		s.cur.x = clamp(x, 0, s.w-1)
		return
	}
	s.cur.y = clamp(s.scroll.top+y, s.scroll.top, s.scroll.bottom-1)
	s.cur.x = clamp(s.scroll.left+x, s.scroll.left, s.scroll.right-1)
}

// moveCursor moves the cursor by dx, dy: within the scroll region when it
// starts there, else within the screen.
func (s *screen) moveCursor(dx, dy int) {
	r := s.scroll
	x, y := s.cur.x, s.cur.y
	if x < r.left {
		r.left = 0
	}
	if x >= r.right {
		r.right = s.w
	}
	if r.contains(x, y) {
		s.cur.y = clamp(y+dy, r.top, r.bottom-1)
		s.cur.x = clamp(x+dx, r.left, r.right-1)
		return
	}
	s.cur.y = clamp(y+dy, 0, s.h-1)
	s.cur.x = clamp(x+dx, 0, s.w-1)
}

// scrollUp scrolls the scroll region's content up n lines (with c for the
// uncovered lines), leaving the cursor where it is.
func (s *screen) scrollUp(n int, c cell) { s.deleteLines(s.scroll.top, n, c) }

// scrollDown scrolls the scroll region's content down n lines.
func (s *screen) scrollDown(n int, c cell) { s.insertLines(s.scroll.top, n, c) }

// deleteLinesAtCursor is DL: it reports whether the cursor was in the
// scroll region (else nothing happens).
func (s *screen) deleteLinesAtCursor(n int, c cell) bool {
	if n <= 0 || !s.scroll.contains(s.cur.x, s.cur.y) {
		return false
	}
	s.deleteLines(s.cur.y, n, c)
	return true
}

// insertLinesAtCursor is IL: it reports whether the cursor was in the
// scroll region (else nothing happens).
func (s *screen) insertLinesAtCursor(n int, c cell) bool {
	if n <= 0 || !s.scroll.contains(s.cur.x, s.cur.y) {
		return false
	}
	s.insertLines(s.cur.y, n, c)
	return true
}

// clamp is v kept within [lo, hi]; every caller's lo is at most its hi (a
// screen is 1×1 or more, a scroll region two rows or columns or more).
func clamp(v, lo, hi int) int { return min(max(v, lo), hi) }
