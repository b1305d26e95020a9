package vterm

import (
	"fmt"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Output costs no allocation per byte: a scrolling log, written again and
// again, allocates nothing once the terminal has seen it.
func TestWritingAllocatesNothingPerByte(t *testing.T) {
	term := New(120, 40)
	log := testLog(200)
	_, _ = term.Write(log)
	if n := testing.AllocsPerRun(20, func() { _, _ = term.Write(log) }); n != 0 {
		t.Fatalf("writing %d bytes of log allocates %.0f times", len(log), n)
	}
}

// The style table stays bounded however many styles the coder prints (a
// truecolor gradient), and the screen keeps the colours it shows.
func TestStyleTableStaysBounded(t *testing.T) {
	if outsideRace.Ran(t) { // child_test.go
		return
	}
	term := New(40, 10)
	for i := range 3 * maxStyles {
		fmt.Fprintf(term, "\x1b[38;2;%d;%d;%dmx", i>>16&0xff, i>>8&0xff, i&0xff)
	}
	if n := len(term.tab.styles); n > maxStyles {
		t.Fatalf("the style table holds %d styles", n)
	}
	// The screen shows the last 400 characters printed, each in its colour.
	n := 3 * maxStyles
	for y := range 10 {
		for x := range 40 {
			i := n - 1 - (9*40 + (n-1)%40) + y*40 + x
			if i >= n {
				continue
			}
			want := fmt.Sprintf("%d,%d,%d", i>>16&0xff, i>>8&0xff, i&0xff)
			fg := term.CellAt(x, y).Style.Fg
			if fg == nil {
				t.Fatalf("cell %d,%d lost its colour (want %s)", x, y, want)
			}
			r, g, b, _ := fg.RGBA()
			if got := fmt.Sprintf("%d,%d,%d", r>>8, g>>8, b>>8); got != want {
				t.Fatalf("cell %d,%d is coloured %s, want %s", x, y, got, want)
			}
		}
	}
}

// The cluster table stays bounded however many distinct grapheme clusters
// the coder prints, and the screen keeps the ones it shows.
func TestClusterTableStaysBounded(t *testing.T) {
	term := New(40, 10)
	var first, second string
	for i := range 3 * maxClusters {
		first = fmt.Sprintf("%c\u0301", 'a'+rune(i%26))
		second = string(rune(0x4e00+i%1000)) + "\u0300"
		_, _ = term.WriteString(first + second + "\r\n")
	}
	if n := len(term.tab.clusters); n > maxClusters {
		t.Fatalf("the cluster table holds %d clusters", n)
	}
	_, y := term.CursorPosition()
	if got, want := term.CellAt(0, y-1).Content+"|"+term.CellAt(1, y-1).Content, first+"|"+second; got != want {
		t.Fatalf("the last line shows %q, want %q", got, want)
	}
}

// A coder setting ever new mode numbers does not grow the terminal.
func TestModesStayBounded(t *testing.T) {
	term := New(10, 2)
	for i := range 4 * maxModes {
		fmt.Fprintf(term, "\x1b[?%dh", 10000+i)
	}
	if len(term.modes) > maxModes {
		t.Fatalf("the terminal remembers %d modes", len(term.modes))
	}
}

// REP repeats at most maxRepeat times, whatever count the coder asks for:
// on a 10×2 screen, 1 + 65536 characters end at column 6.
func TestRepeatIsBounded(t *testing.T) {
	term := New(10, 2)
	_, _ = term.WriteString("a\x1b[99999999999b")
	if x, y := term.CursorPosition(); x != 7 || y != 1 || term.CellAt(6, 1).Content != "a" || term.CellAt(7, 1).Content != " " {
		t.Fatalf("REP left the cursor at %d,%d:\n%s", x, y, term.dump())
	}
}

// Rebuilding the style table forgets what SGR sequences did to the pen:
// the style indexes it remembered are gone.
func TestRebuiltStyleTableForgetsSGRs(t *testing.T) {
	term := New(10, 2)
	_, _ = term.WriteString("\x1b[38;2;1;2;3mX\x1b[0m\x1b[31m\x1b[0m\r\x1b[K")
	term.compact() // only the plain pen is left: the red style is dropped
	_, _ = term.WriteString("\x1b[31mR")
	if fg := term.CellAt(0, 0).Style.Fg; fg != ansi.Red {
		t.Fatalf("R is coloured %v, want red", fg)
	}
}

// Replies not taken stay bounded however many queries the coder sends.
func TestRepliesStayBounded(t *testing.T) {
	term := New(10, 2)
	q := []byte("\x1b[6n")
	for range 2 * maxReplies / len("\x1b[1;1R") {
		_, _ = term.Write(q)
	}
	if n := len(term.Replies()); n > maxReplies || n < maxReplies-16 {
		t.Fatalf("%d bytes of replies waited", n)
	}
}

// A paste larger than the bound on replies is queued whole: it is the
// person's, not the coder's.
func TestLargePasteIsQueuedWhole(t *testing.T) {
	term := New(10, 2)
	big := strings.Repeat("x", 2*maxReplies)
	term.Paste(big)
	if got := string(term.Replies()); got != big {
		t.Fatalf("a %d-byte paste queued %d bytes", len(big), len(got))
	}
}

// A resize keeps every cursor on the screen: the other screen's and the
// saved ones, which the coder may restore and set a tab stop at.
func TestResizeKeepsEveryCursorOnTheScreen(t *testing.T) {
	term := New(80, 24)
	_, _ = term.WriteString("\x1b[20;70H\x1b7\x1b[?1049h\x1b[22;75H\x1b7")
	term.Resize(20, 5)
	_, _ = term.WriteString("\x1b8\x1bH\x1b[g")
	if x, y := term.CursorPosition(); x != 19 || y != 4 {
		t.Fatalf("the alternate screen's restored cursor is at %d,%d", x, y)
	}
	_, _ = term.WriteString("\x1b[?1049l\x1bH")
	if x, y := term.CursorPosition(); x != 19 || y != 4 {
		t.Fatalf("the main screen's cursor is at %d,%d", x, y)
	}
	_, _ = term.WriteString("\x1b8\x1bHk")
	if x, y := term.CursorPosition(); x != 19 || y != 4 || term.CellAt(19, 4).Content != "k" {
		t.Fatalf("the main screen's restored cursor is at %d,%d:\n%s", x, y, term.dump())
	}
}

// A zero count or distance is 1, as in xterm (x/vt does nothing).
func TestZeroCountMeansOne(t *testing.T) {
	for _, c := range []struct {
		seq  string
		x, y int
		row  string
	}{
		{"\x1b[0A", 4, 1, "abcdefgh"},
		{"\x1b[0B", 4, 3, "abcdefgh"},
		{"\x1b[0C", 5, 2, "abcdefgh"},
		{"\x1b[0D", 3, 2, "abcdefgh"},
		{"\x1b[0E", 0, 3, "abcdefgh"},
		{"\x1b[0F", 0, 1, "abcdefgh"},
		{"\x1b[0a", 5, 2, "abcdefgh"},
		{"\x1b[0e", 4, 3, "abcdefgh"},
		{"\x1b[0@", 4, 2, "abcd efg"},
		{"\x1b[0P", 4, 2, "abcdfgh "},
		{"\x1b[0L", 0, 2, "        "},
		{"\x1b[0M", 0, 2, "        "},
		{"\x1b[0S", 4, 2, "        "},
		{"\x1b[0T", 4, 2, "        "},
		{"\x1b[0b", 5, 2, "abcdhfgh"}, // the last character printed, h
	} {
		term := New(8, 5)
		_, _ = term.WriteString("\x1b[3;1Habcdefgh\x1b[3;5H")
		_, _ = term.WriteString(c.seq)
		x, y := term.CursorPosition()
		row := ""
		for i := range 8 {
			row += term.CellAt(i, 2).Content
		}
		if x != c.x || y != c.y || row != c.row {
			t.Errorf("%q: cursor %d,%d, row 2 %q; want %d,%d, %q", c.seq, x, y, row, c.x, c.y, c.row)
		}
	}
}

// An SGR whose new pen fills the style table, which is then rebuilt, leaves
// nothing remembered under the full table's indexes: the same SGR from
// the pen that later takes the old pen's index applies to that pen.
func TestSGRThatRebuildsTheStyleTableIsNotRemembered(t *testing.T) {
	if outsideRace.Ran(t) { // child_test.go
		return
	}
	term := New(4, 1)
	n := 0
	fill := func(upTo int) { // new styles, each set by an SGR too long to be remembered
		for ; len(term.tab.styles) < upTo; n++ {
			fmt.Fprintf(term, "\x1b[0;0;0;0;38;2;%d;%d;%dm", n>>16&0xff, n>>8&0xff, n&0xff)
		}
	}
	fill(maxStyles)
	if term.scr.cur.penIdx != maxStyles-1 {
		t.Fatalf("the pen is style %d, want the last, %d", term.scr.cur.penIdx, maxStyles-1)
	}
	_, _ = term.WriteString("\x1b[1m") // bold: a new style, which rebuilds the table
	if len(term.tab.styles) >= maxStyles {
		t.Fatal("the style table was not rebuilt")
	}
	fill(maxStyles - 1)
	_, _ = term.WriteString("\x1b[0;0;0;0;4;38;2;250;2;3m") // underlined: style maxStyles-1 again
	if term.scr.cur.penIdx != maxStyles-1 {
		t.Fatalf("the pen is style %d, want %d", term.scr.cur.penIdx, maxStyles-1)
	}
	_, _ = term.WriteString("\x1b[1mx")
	st := term.CellAt(0, 0).Style
	r, g, b, _ := st.Fg.RGBA()
	if st.Attrs&uv.AttrBold == 0 || st.Underline == uv.UnderlineNone || r>>8 != 250 || g>>8 != 2 || b>>8 != 3 {
		t.Fatalf("x is drawn %+v, want bold, underlined, 250,2,3", st)
	}
}
