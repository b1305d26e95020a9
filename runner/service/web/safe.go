package web

import (
	"strings"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Shown is text Sentinel did not write, made safe for the page: textsafe's
// pieces, with every hidden character (controls, ESC, bidi overrides,
// zero-width, non-UTF-8 bytes) spelled out as <U+XXXX> in a piece of its
// own the page marks. The template escapes every piece for HTML, so the
// page's text is exactly what textsafe shows at a terminal, and nothing in
// it is markup, a link or script.
type Shown []textsafe.Piece

// Strict is s for what the person approves (a command, a path, a host):
// every rune outside printable ASCII spelled out, as textsafe.Strict.
func Strict(s string) Shown { return textsafe.Pieces(s, true) }

// Line is s on one line, as textsafe.Line.
func Line(s string) Shown { return textsafe.Pieces(s, false) }

// Lines is s split into lines, each as Line: a write's content, a diff.
func Lines(s string) []Shown {
	s = strings.TrimSuffix(s, "\n")
	var out []Shown
	for _, l := range strings.Split(s, "\n") {
		out = append(out, Line(l))
	}
	return out
}

// String is the text the page shows for sh.
func (sh Shown) String() string {
	var b strings.Builder
	for _, p := range sh {
		b.WriteString(p.Text)
	}
	return b.String()
}
