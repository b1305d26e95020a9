package vterm

import (
	"image/color"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// Terminal is a w×h terminal screen fed by Write.
type Terminal struct {
	p    *ansi.Parser
	scrs [2]screen
	scr  *screen // the active one: scrs[0] or, on the alternate screen, scrs[1]
	tab  tables

	tabs []bool // tab stops, one per column

	modes map[mode]ansi.ModeSetting // every mode set or reset, for reports and keys
	// The modes consulted on every character, mirrored from modes.
	autowrap, origin, newline bool

	charsets [4]*charset // G0 to G3; nil is US ASCII
	gl       int         // the charset GL is shifted to
	gsingle  int         // a single shift (2 or 3) for the next character

	phantom  bool   // the cursor sits past the last column: the next character wraps first
	lastChar rune   // the last ASCII character printed, for REP
	grapheme []byte // characters not yet printed: a combining mark may still join them

	fg, bg, cursorColor color.Color // colours set by OSC 10, 11 and 12; nil for the default

	str stringUTF8 // UTF-8 inside control strings (strings.go)

	replies []byte // answers to the coder's queries and encoded keys, not yet taken (at most maxReplies)

	params [maxFastParams]ansi.Param // fastCSI's
	widths *widthsBMP                // runeWidth's, made on first use
	sgrs   sgrCache                  // sgr's
}

// Default colours reported when the coder asks and has set none.
var (
	defaultFg  color.Color = color.White
	defaultBg  color.Color = color.Black
	defaultCur color.Color = color.White
)

// New returns a w×h terminal (at least 1×1) on its main screen.
func New(w, h int) *Terminal {
	w, h = max(w, 1), max(h, 1)
	t := &Terminal{tab: newTables()}
	t.scrs[0], t.scrs[1] = newScreen(w, h), newScreen(w, h)
	t.scr = &t.scrs[0]
	t.p = ansi.NewParser()
	t.p.SetParamsSize(parser.MaxParamsSize)
	t.p.SetDataSize(64 << 10) // OSC strings longer than this are cut; none needs more
	t.p.SetHandler(ansi.Handler{
		Print:     t.print,
		Execute:   t.execute,
		HandleCsi: t.csi,
		HandleEsc: t.esc,
		HandleOsc: t.osc,
		HandleDcs: func(ansi.Cmd, ansi.Params, []byte) { t.flushGrapheme() },
		HandleApc: t.swallow,
		HandlePm:  t.swallow,
		HandleSos: t.swallow,
	})
	t.tabs = defaultTabs(w)
	t.resetModes()
	return t
}

func (t *Terminal) swallow([]byte) { t.flushGrapheme() }

func defaultTabs(w int) []bool {
	tabs := make([]bool, w)
	for x := 0; x < w; x += 8 {
		tabs[x] = true
	}
	return tabs
}

// Width and Height are the terminal's size.
func (t *Terminal) Width() int  { return t.scr.w }
func (t *Terminal) Height() int { return t.scr.h }

// Write parses the coder's output. It never fails and never blocks.
func (t *Terminal) Write(p []byte) (int, error) {
	for i := 0; i < len(p); {
		if t.p.State() == parser.GroundState {
			b := p[i]
			switch {
			case b >= ' ' && b < 0x7f && t.charsets[t.gl] == nil && t.gsingle == 0:
				i += t.printASCII(p[i:])
				continue
			case b < ' ' && b != ansi.ESC && b != ansi.CAN && b != ansi.SUB:
				t.execute(b)
				i++
				continue
			case b == ansi.ESC && i+1 < len(p) && p[i+1] == '[':
				if n := t.fastCSI(p[i:]); n > 0 {
					i += n
					continue
				}
			case b >= 0xc2 && b <= 0xf4:
				if n := t.fastRune(p[i:]); n > 0 {
					i += n
					continue
				}
			}
		}
		t.p.Advance(t.str.byteFor(t.p.State(), p[i]))
		i++
	}
	t.flushGrapheme()
	return len(p), nil
}

// WriteString is Write for a string.
func (t *Terminal) WriteString(s string) (int, error) { return t.Write([]byte(s)) }

// Replies returns the bytes meant for the coder since the last call
// (answers to its queries, keys, pastes) and forgets them; the slice is
// the caller's.
func (t *Terminal) Replies() []byte {
	r := t.replies
	t.replies = nil
	return r
}

// reply queues an answer to one of the coder's queries.
func (t *Terminal) reply(s string) {
	if len(t.replies)+len(s) <= maxReplies {
		t.replies = append(t.replies, s...)
	}
}

// maxReplies bounds the answers waiting for the caller to take: past it,
// answers are dropped, so a coder flooding queries at a caller that does not
// take them cannot grow the terminal. The person's keys and pastes are
// always queued (input queues them without bound).
const maxReplies = 1 << 20

// input queues the person's keys or paste for the coder.
func (t *Terminal) input(s string) { t.replies = append(t.replies, s...) }

// CursorPosition returns the cursor's column and row.
func (t *Terminal) CursorPosition() (x, y int) { return t.scr.cur.x, t.scr.cur.y }

// CursorHidden reports whether the coder hid the cursor.
func (t *Terminal) CursorHidden() bool { return t.scr.cur.hidden }

// AltScreen reports whether the alternate screen is shown.
func (t *Terminal) AltScreen() bool { return t.scr == &t.scrs[1] }

// Cell is what one screen column shows.
type Cell struct {
	Content string // the character or grapheme cluster; "" for the columns a wide one covers
	Width   int    // columns it takes: 1, 2 for wide characters, 0 for those covered columns
	Style   uv.Style
}

// CellAt returns the cell at column x of row y; the zero Cell outside the
// screen.
func (t *Terminal) CellAt(x, y int) Cell {
	s := t.scr
	if x < 0 || y < 0 || x >= s.w || y >= s.h {
		return Cell{}
	}
	c := s.rows[y][x]
	return Cell{Content: t.tab.content(c), Width: int(c.w), Style: t.tab.styles[c.st]}
}

// Resize makes the terminal w×h (at least 1×1), keeping the top-left of
// both screens; the scroll regions and tab stops are reset.
func (t *Terminal) Resize(w, h int) {
	w, h = max(w, 1), max(h, 1)
	x, y := t.scr.cur.x, t.scr.cur.y
	if t.phantom && x < w-1 {
		x++
	}
	x, y = clamp(x, 0, w-1), clamp(y, 0, h-1)
	for i := range t.scrs {
		s := &t.scrs[i]
		s.resize(w, h)
		// The other screen's cursor and the saved cursors are kept on the
		// screen too (x/vt leaves them where they were, possibly off the
		// screen, where a tab stop set there panics).
		for _, c := range []*cursor{&s.cur, &s.saved} {
			c.x, c.y = clamp(c.x, 0, w-1), clamp(c.y, 0, h-1)
		}
	}
	t.tabs = defaultTabs(w)
	t.scr.setCursor(x, y, false)
	t.phantom = false
	if t.isSet(dec(ansi.ModeInBandResize)) {
		t.reply(ansi.InBandResize(h, w, 0, 0))
	}
}

// blankCell is the cell erasing leaves: a space with the pen's background.
func (t *Terminal) blankCell() cell {
	bg := t.tab.styles[t.scr.cur.penIdx].Bg
	if bg == nil {
		return blank
	}
	return cell{r: ' ', st: t.styleIndex(uv.Style{Bg: bg}), w: 1}
}

// styleIndex interns st, rebuilding the tables first when full.
func (t *Terminal) styleIndex(st uv.Style) uint16 {
	i, ok := t.tab.style(st)
	if !ok {
		t.compact()
		i, _ = t.tab.style(st)
	}
	return i
}

// clusterRune is the cell rune for the grapheme cluster b.
func (t *Terminal) clusterRune(b []byte) rune {
	r, ok := t.tab.cluster(b)
	if !ok {
		t.compact()
		r, _ = t.tab.cluster(b)
	}
	return r
}

// compact rebuilds the style and cluster tables from what the screens and
// cursors still use, so they stay bounded however many styles and clusters
// the coder has printed.
func (t *Terminal) compact() {
	old := t.tab
	t.tab = newTables()
	t.sgrs = sgrCache{} // it holds style indexes
	remap := func(c *cell) {
		c.st, _ = t.tab.style(old.styles[c.st])
		if c.r < 0 {
			c.r, _ = t.tab.cluster([]byte(old.clusters[-c.r-1]))
		}
	}
	for i := range t.scrs {
		s := &t.scrs[i]
		for _, row := range s.rows {
			for x := range row {
				remap(&row[x])
			}
		}
		for _, cur := range []*cursor{&s.cur, &s.saved} {
			cur.penIdx, _ = t.tab.style(old.styles[cur.penIdx])
		}
	}
}
