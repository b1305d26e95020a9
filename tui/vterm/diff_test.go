package vterm

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// The differential tests feed the same bytes to this package and to x/vt
// v0.1.0 (the emulator the coder pane used before, the oracle here) and
// compare every cell (content, width, colours, attributes), the cursor
// (position, visibility), the screen shown and the replies to the coder.
//
// Exceptions, where x/vt is wrong and this package is not, are kept out of
// the generated input rather than loosening the comparison:
//   - a bottom margin (DECSTBM) below the screen or a right margin (DECSLRM)
//     past it: x/vt takes it as given and can then put the cursor off the
//     screen; here it is the screen's edge. The generator keeps margins on
//     the screen.
//   - resizing while the alternate screen is shown and then leaving it, or
//     restoring a cursor saved before a resize: x/vt leaves the main
//     screen's cursor and the saved cursors where they were, possibly off the
//     shrunk screen (where setting a tab stop panics); here they are clamped
//     (TestResizeKeepsEveryCursorOnTheScreen). Resizes are compared on the
//     recordings, which save no cursor after their first bytes.
//   - a zero count or distance (CUU, CUD, CUF, CUB, CNL, CPL, CHT, CBT, HPR,
//     VPR, ICH, DCH, IL, DL, SU, SD, REP) is 1 here, as in xterm, which the
//     coders draw for; x/vt does nothing. The generator leaves zero counts
//     out; TestZeroCountMeansOne checks them.
//   - REP with a count above 65536 repeats 65536 times here (x/vt loops for
//     as long as the coder asks); counts are generated below that.
//   - keys: see TestKeysEncodeAsXVT.
//   - a UTF-8 character inside a control string (a title "✳ Claude Code"):
//     x/vt ends the string at a 0x9C or other C1 byte of the character and
//     prints the rest. The oracle is fed the bytes as this package's parser
//     gets them (pair.asOurs); TestControlStringsHoldUTF8 checks them.
//
// Hyperlinks (OSC 8) are not compared: the pane drops them, and this
// package does not keep them.

// oracle is x/vt with its replies collected.
type oracle struct {
	emu  *vt.Emulator
	mu   sync.Mutex
	more *sync.Cond // signalled when got grows
	got  []byte
	done chan struct{}
}

func newOracle(w, h int) *oracle {
	o := &oracle{emu: vt.NewEmulator(w, h), done: make(chan struct{})}
	o.more = sync.NewCond(&o.mu)
	o.emu.SetScrollbackSize(1)
	go func() {
		defer close(o.done)
		buf := make([]byte, 4096)
		for {
			n, err := o.emu.Read(buf)
			o.mu.Lock()
			o.got = append(o.got, buf[:n]...)
			o.more.Broadcast()
			o.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return o
}

const replyMark = "\x00mark\x00"

// replies returns what x/vt sent the coder since the last call.
func (o *oracle) replies() []byte {
	_, _ = io.WriteString(o.emu.InputPipe(), replyMark)
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		if i := bytes.Index(o.got, []byte(replyMark)); i >= 0 {
			r := append([]byte(nil), o.got[:i]...)
			o.got = append(o.got[:0], o.got[i+len(replyMark):]...)
			return r
		}
		o.more.Wait()
	}
}

func (o *oracle) close() {
	_ = o.emu.InputPipe().(*io.PipeWriter).CloseWithError(io.EOF)
	<-o.done
}

// pair is this package's terminal and the oracle, fed alike.
type pair struct {
	t    testing.TB
	ours *Terminal
	vt   *oracle
	fed  bytes.Buffer // everything written, for the failure message

	track *ansi.Parser // the parser's state as ours reads what is fed (asOurs)
	str   stringUTF8
}

func newPair(t testing.TB, w, h int) *pair {
	p := &pair{t: t, ours: New(w, h), vt: newOracle(w, h)}
	t.Cleanup(p.vt.close)
	return p
}

func (p *pair) write(b []byte) {
	p.fed.Write(b)
	_, _ = p.ours.Write(b)
	_, _ = p.vt.emu.Write(p.asOurs(b))
}

// asOurs is b with the UTF-8 characters inside control strings made '?',
// as Terminal.Write gives them to its parser (strings.go): x/vt ends a
// string at a character's 0x9C byte and prints the rest ("✳ Claude Code",
// a title, drawn on the screen), and is compared on everything else.
func (p *pair) asOurs(b []byte) []byte {
	if p.track == nil {
		p.track = ansi.NewParser()
	}
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = p.str.byteFor(p.track.State(), c)
		p.track.Advance(out[i])
	}
	return out
}

func (p *pair) resize(w, h int) {
	fmt.Fprintf(&p.fed, "<resize %dx%d>", w, h)
	p.ours.Resize(w, h)
	p.vt.emu.Resize(w, h)
}

// check compares the two terminals; it reports the first difference.
func (p *pair) check(what string) bool {
	p.t.Helper()
	if d := p.diff(); d != "" {
		fed := p.fed.String()
		if len(fed) > 600 {
			fed = "…" + fed[len(fed)-600:]
		}
		screens := ""
		if p.ours.Height() <= 12 {
			screens = "\nours:\n" + p.ours.dump() + "x/vt:\n" + dumpVT(p.vt.emu)
		}
		p.t.Errorf("%s: %s\nlast input: %q%s", what, d, fed, screens)
		return false
	}
	return true
}

func (p *pair) diff() string {
	o, e := p.ours, p.vt.emu
	if o.Width() != e.Width() || o.Height() != e.Height() {
		return fmt.Sprintf("size %dx%d, x/vt %dx%d", o.Width(), o.Height(), e.Width(), e.Height())
	}
	if o.AltScreen() != e.IsAltScreen() {
		return fmt.Sprintf("alternate screen %v, x/vt %v", o.AltScreen(), e.IsAltScreen())
	}
	for y := range o.Height() {
		for x := range o.Width() {
			c, v := o.CellAt(x, y), e.CellAt(x, y)
			if v == nil {
				return fmt.Sprintf("x/vt has no cell at %d,%d", x, y)
			}
			if c.Content != v.Content || c.Width != v.Width || !c.Style.Equal(&v.Style) {
				return fmt.Sprintf("cell %d,%d is %q w%d %+v, x/vt %q w%d %+v", x, y, c.Content, c.Width, c.Style, v.Content, v.Width, v.Style)
			}
		}
	}
	x, y := o.CursorPosition()
	if pos := e.CursorPosition(); x != pos.X || y != pos.Y {
		return fmt.Sprintf("cursor at %d,%d, x/vt %d,%d", x, y, pos.X, pos.Y)
	}
	if o.CursorHidden() != e.CursorHidden() {
		return fmt.Sprintf("cursor hidden %v, x/vt %v", o.CursorHidden(), e.CursorHidden())
	}
	if r, v := o.Replies(), p.vt.replies(); !bytes.Equal(r, v) {
		return fmt.Sprintf("replies %q, x/vt %q", r, v)
	}
	return ""
}

func (t *Terminal) dump() string {
	return dumpScreen(t.Width(), t.Height(), func(x, y int) (string, int) {
		c := t.CellAt(x, y)
		return c.Content, c.Width
	})
}

func dumpVT(e *vt.Emulator) string {
	return dumpScreen(e.Width(), e.Height(), func(x, y int) (string, int) {
		c := e.CellAt(x, y)
		return c.Content, c.Width
	})
}

// dumpScreen draws a screen as text for a failure message, one row a
// line: each cell's content, · for an empty one.
func dumpScreen(w, h int, cell func(x, y int) (string, int)) string {
	var sb strings.Builder
	for y := range h {
		for x := range w {
			content, width := cell(x, y)
			if width == 0 && content == "" {
				sb.WriteString("·")
				continue
			}
			sb.WriteString(content)
		}
		sb.WriteString("|\n")
	}
	return sb.String()
}

// sizes are the screen sizes every input is compared at.
var sizes = [][2]int{{80, 24}, {120, 40}, {33, 7}}

// feed writes in to both terminals in chunks of at most n bytes (random
// sizes when n is 0), comparing after every chunk (every 64th when n is 1:
// the cuts are what n = 1 is for).
func feed(t *testing.T, p *pair, in []byte, n int, rng *rand.Rand) {
	t.Helper()
	for i := 0; len(in) > 0; i++ {
		k := n
		if k == 0 {
			k = 1 + rng.IntN(300)
		}
		k = min(k, len(in))
		p.write(in[:k])
		in = in[k:]
		if n == 1 && i%64 != 63 && len(in) > 0 {
			continue
		}
		if !p.check(fmt.Sprintf("after chunk %d", i)) {
			return
		}
	}
}
