package vterm

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// printASCII prints the run of printable ASCII at the start of p (the
// caller checked p[0] is one, with no character set mapping in force) and
// returns how many bytes it took. The run's last character waits in the
// grapheme buffer, as every character does until the next one or a
// control: a combining mark may still join it.
func (t *Terminal) printASCII(p []byte) int {
	t.flushGrapheme()
	n := 0
	for n < len(p) && p[n] >= ' ' && p[n] < 0x7f {
		n++
	}
	last := n - 1
	t.grapheme = append(t.grapheme, p[last])
	if last == 0 {
		return n
	}
	s := t.scr
	st := s.cur.penIdx
	run := p[:last]
	for len(run) > 0 {
		if t.phantom && t.autowrap {
			t.index()
			s.cur.x = 0
		}
		x, y := s.cur.x, s.cur.y
		if !t.autowrap || y < 0 || y >= s.h || x < 0 || x >= s.w {
			t.printByte(run[0], st)
			run = run[1:]
			continue
		}
		// The characters that fit before the right edge go in at once.
		m := min(len(run), s.w-x)
		row := s.rows[y]
		s.cut(row, x, x+m)
		for i, b := range run[:m] {
			row[x+i] = cell{r: rune(b), st: st, w: 1}
		}
		run = run[m:]
		if x+m >= s.w {
			s.cur.x, t.phantom = s.w-1, true
		} else {
			s.cur.x, t.phantom = x+m, false
		}
	}
	t.lastChar = rune(p[last-1])
	return n
}

// printByte prints one ASCII character with style st: printCluster without
// the character set and cluster handling printASCII's caller ruled out.
func (t *Terminal) printByte(b byte, st uint16) {
	s := t.scr
	x, y := s.cur.x, s.cur.y
	if y >= 0 && y < s.h && x >= 0 && x < s.w {
		s.set(y, x, cell{r: rune(b), st: st, w: 1})
	}
	t.phantom = t.autowrap && x >= s.w-1
	if !t.phantom {
		x++
	}
	s.cur.x = min(x, s.w-1)
}

// print is the parser's: a character outside the ASCII fast path.
func (t *Terminal) print(r rune) {
	if r >= ' ' && r < 0x7f {
		// No ASCII character joins the cluster before it.
		if len(t.grapheme) == 1 && t.grapheme[0] >= ' ' && t.grapheme[0] < 0x7f {
			t.printCluster(t.grapheme, 1)
			t.grapheme = append(t.grapheme[:0], byte(r))
			return
		}
		t.flushGrapheme()
	}
	t.grapheme = utf8.AppendRune(t.grapheme, r)
}

// flushGrapheme prints the characters waiting in the grapheme buffer, a
// cluster at a time.
func (t *Terminal) flushGrapheme() {
	g := t.grapheme
	if len(g) == 1 && g[0] >= ' ' && g[0] < 0x7f {
		t.printCluster(g, 1)
		g = g[:0]
	}
	for len(g) > 0 {
		if r, n := utf8.DecodeRune(g); alone(r) {
			if next, _ := utf8.DecodeRune(g[n:]); n == len(g) || alone(next) {
				t.printCluster(g[:n], t.runeWidth(r))
				g = g[n:]
				continue
			}
		}
		cluster, width := ansi.FirstGraphemeCluster(g, ansi.GraphemeWidth)
		if len(cluster) == 0 {
			break
		}
		t.printCluster(cluster, width)
		g = g[len(cluster):]
	}
	t.grapheme = t.grapheme[:0]
}

// printCluster prints one grapheme cluster at the cursor, wrapping first if
// the last character left the cursor past the last column.
func (t *Terminal) printCluster(b []byte, width int) {
	s := t.scr
	x, y := s.cur.x, s.cur.y
	if t.phantom && t.autowrap {
		t.index()
		y, x = s.cur.y, 0
	}
	single := t.gsingle
	t.gsingle = 0
	c := cell{st: s.cur.penIdx, w: uint8(min(max(width, 0), 255))}
	mapped := false
	if len(b) == 1 {
		cs := t.charsets[t.gl]
		if single > 1 && single < 4 {
			cs = t.charsets[single]
		}
		if r, ok := cs.mapByte(b[0]); ok {
			c.r, c.w, mapped = r, 1, true
		}
	}
	if !mapped {
		c.r = t.clusterRune(b)
	}
	if c.w == 1 && len(b) == 1 {
		t.lastChar = rune(b[0])
	}
	s.set(y, x, c)
	t.phantom = t.autowrap && x >= s.w-1
	if !t.phantom {
		x += int(c.w)
	}
	s.setCursor(x, y, false)
}

// repeat prints the last ASCII character n more times (REP).
func (t *Terminal) repeat(n int) {
	if t.lastChar == 0 {
		return
	}
	for range min(n, maxRepeat) {
		t.print(t.lastChar)
	}
}

// maxRepeat bounds REP: a coder cannot make one sequence cost unbounded work.
const maxRepeat = 1 << 16
