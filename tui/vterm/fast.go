package vterm

import (
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
)

// The fast paths take the common shapes of output without the byte-at-a-time
// parser: a control sequence whole in the buffer, with at most a prefix,
// short numeric parameters and one intermediate byte; a valid UTF-8
// character. Everything else (and anything cut by the end of a write) goes
// through the parser, which the fast paths agree with byte for byte.

// maxFastParams bounds the parameters a fast control sequence may have (the
// parser takes 32).
const maxFastParams = 16

// fastCSI dispatches the control sequence at the start of p (ESC [) and
// returns its length, or 0 to leave it to the parser.
func (t *Terminal) fastCSI(p []byte) int {
	i := 2
	cmd := 0
	if i < len(p) && p[i] >= '<' && p[i] <= '?' {
		cmd = int(p[i]) << parser.PrefixShift
		i++
	}
	params := &t.params
	n, digits := 0, 0
	params[0] = parser.MissingParam
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= '0' && c <= '9':
			if digits == 5 {
				return 0
			}
			if params[n] == parser.MissingParam {
				params[n] = 0
			}
			params[n] = params[n]*10 + ansi.Param(c-'0')
			digits++
			continue
		case c == ';' || c == ':':
			if c == ':' {
				params[n] |= parser.HasMoreFlag
			}
			if n++; n == maxFastParams {
				return 0
			}
			params[n] = parser.MissingParam
			digits = 0
			continue
		}
		break
	}
	if i < len(p) && p[i] >= 0x20 && p[i] <= 0x2f {
		cmd |= int(p[i]) << parser.IntermedShift
		i++
	}
	if i >= len(p) || p[i] < 0x40 || p[i] > 0x7e {
		return 0
	}
	cmd |= int(p[i])
	count := n
	if n > 0 || params[0] != parser.MissingParam {
		count++
	}
	t.csi(ansi.Cmd(cmd), params[:count])
	return i + 1
}

// fastRune prints the valid UTF-8 character at the start of p and returns
// its length, or 0 to leave it to the parser.
func (t *Terminal) fastRune(p []byte) int {
	r, n := utf8.DecodeRune(p)
	if n < 2 {
		return 0
	}
	t.print(r)
	return n
}

// alone reports whether r is a character no neighbour from the same set can
// join into a grapheme cluster: not a combining mark, joiner, variation
// selector, regional indicator, prepended or Indic conjunct letter, Hangul
// jamo or format character. Between two such characters a cluster always
// ends, so they are printed without asking the segmenter.
func alone(r rune) bool {
	switch {
	case r < 0xa0:
		return false
	case r <= 0x2ff:
		return r != 0xad // soft hyphen is a format character
	case r <= 0x36f: // combining diacritics
		return false
	case r <= 0x482: // Greek, Cyrillic letters
		return true
	case r < 0x2010:
		return false
	case r <= 0x2027: // dashes, quotes, bullets, ellipsis
		return true
	case r < 0x2030:
		return false
	case r <= 0x205e:
		return true
	case r < 0x2070:
		return false
	case r <= 0x20cf: // super- and subscripts, currency
		return true
	case r < 0x2100:
		return false
	case r <= 0x2bff: // letterlike, arrows, maths, technical, box drawing, blocks, shapes, symbols, dingbats
		return true
	case r >= 0x4e00 && r <= 0x9fff, r >= 0xac00 && r <= 0xd7a3, r >= 0xff01 && r <= 0xff9d:
		return true
	}
	return false
}

// runeWidth is the width of the cluster r alone, as the segmenter gives it,
// remembered for the characters alone admits (all in the BMP).
func (t *Terminal) runeWidth(r rune) int {
	if r < 0 || int(r) >= len(widthsBMP{}) {
		return clusterWidth(r)
	}
	if t.widths == nil {
		t.widths = new(widthsBMP)
	}
	if w := t.widths[r]; w != 0 {
		return int(w - 1)
	}
	w := clusterWidth(r)
	t.widths[r] = uint8(min(max(w, 0), 254)) + 1
	return w
}

// widthsBMP holds a width plus one per character; 0 is not yet known.
type widthsBMP [0x10000]uint8

func clusterWidth(r rune) int {
	var b [utf8.UTFMax]byte
	_, w := ansi.FirstGraphemeCluster(b[:utf8.EncodeRune(b[:], r)], ansi.GraphemeWidth)
	return w
}

// sgrCache remembers what SGR sequences did to the pen: a coder repeats a
// handful of them, and reading one and interning the pen it makes costs
// more than the rest of the sequence.
type sgrCache [64]sgrEntry

type sgrEntry struct {
	ok       bool
	from, to uint16 // pen style indexes before and after
	n        uint8
	params   [8]ansi.Param
}

// sgr applies SGR params to the cursor's pen.
func (t *Terminal) sgr(params ansi.Params) {
	cur := &t.scr.cur
	if len(params) > len(sgrEntry{}.params) {
		pen := t.tab.styles[cur.penIdx]
		uv.ReadStyle(params, &pen)
		cur.penIdx = t.styleIndex(pen)
		return
	}
	h := uint32(cur.penIdx) * 16777619
	for _, p := range params {
		h = (h ^ uint32(p)) * 16777619
	}
	e := &t.sgrs[(h^h>>16)%uint32(len(t.sgrs))]
	if e.ok && e.from == cur.penIdx && int(e.n) == len(params) && sameParams(e.params[:e.n], params) {
		cur.penIdx = e.to
		return
	}
	from := cur.penIdx
	pen := t.tab.styles[from]
	uv.ReadStyle(params, &pen)
	to, ok := t.tab.style(pen)
	if !ok { // the table is full: rebuilt, from is no index of the new one
		cur.penIdx = t.styleIndex(pen)
		return
	}
	cur.penIdx = to
	*e = sgrEntry{ok: true, from: from, to: to, n: uint8(len(params))}
	copy(e.params[:], params)
}

func sameParams(a, b ansi.Params) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
