// Package textsafe is Sentinel's one sanitizer for text it did not write:
// everything the coder can influence (reports, request summaries, commands,
// file names, diff lines, labels, policy reasons, its terminal output) passes
// through it before it reaches the person's terminal or a markdown report.
//
// Nothing is dropped silently and nothing hidden passes raw. Every character
// that could act on a terminal or hide from the reader — C0 and C1 controls
// (ESC, BEL, CR, the one-rune CSI U+009B), DEL, bidi overrides and isolates,
// zero-width and other format characters, the BOM, soft hyphens, tag
// characters, variation selectors that follow nothing they select, invisible
// fillers, line and paragraph separators and spaces other than U+0020 — is
// spelled out as <U+XXXX>; a byte that is not UTF-8 is spelled <0xXX>. The
// output of Line, Block and Strict is therefore safe to print and stable:
// sanitizing it again changes nothing.
package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Piece is a run of text to show: plain text, or one hidden character (or
// invalid byte) spelled out, which renderers may style so it stands out.
type Piece struct {
	Text   string
	Hidden bool
}

// Line is s for a one-line display: hidden characters spelled out, a tab as
// four spaces and a newline as " ⏎ ".
func Line(s string) string { return join(s, modeLine) }

// Block is s for a multi-line display: like Line, but newlines and tabs are
// kept as they are.
func Block(s string) string { return join(s, modeBlock) }

// Strict is s with every rune outside printable ASCII spelled out — tabs,
// newlines and every non-ASCII letter too (a Cyrillic а looks like a Latin a).
// It is for what the person approves: a command, a path, a host.
func Strict(s string) string { return join(s, modeStrict) }

// Pieces splits s as Line (strict false) or Strict (strict true) would show
// it, keeping hidden characters apart for styling.
func Pieces(s string, strict bool) []Piece {
	m := modeLine
	if strict {
		m = modeStrict
	}
	var out []Piece
	walk(s, m, func(text string, hidden bool) {
		if n := len(out); n > 0 && !hidden && !out[n-1].Hidden {
			out[n-1].Text += text
			return
		}
		out = append(out, Piece{text, hidden})
	})
	return out
}

// Clean reports whether Line would return s unchanged, without copying it.
func Clean(s string) bool {
	prev := rune(0)
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return false
			}
		}
		if r == '\t' || r == '\n' || Hidden(prev, r) {
			return false
		}
		prev = r
	}
	return true
}

// Hidden reports whether r is shown spelled out (after prev; a variation
// selector is kept only right after a symbol it can select).
func Hidden(prev, r rune) bool {
	switch {
	case r >= 0x20 && r < 0x7f:
		return false
	case r < 0x20, r >= 0x7f && r < 0xa0:
		return true
	case r == utf8.RuneError:
		return false // the replacement character itself is visible
	case unicode.Is(unicode.Variation_Selector, r):
		return !((r == 0xfe0e || r == 0xfe0f) && prev > 0x7f && unicode.Is(unicode.So, prev))
	case unicode.Is(unicode.Zs, r), // spaces other than U+0020
		unicode.Is(unicode.Cf, r),                                 // zero-width, bidi, BOM, soft hyphen, tags
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), // fillers, CGJ
		!unicode.IsGraphic(r):                                     // other controls, separators, private use, unassigned
		return true
	}
	return false
}

// Spell is how a hidden rune is shown.
func Spell(r rune) string { return fmt.Sprintf("<U+%04X>", r) }

type mode int

const (
	modeLine mode = iota
	modeBlock
	modeStrict
)

func join(s string, m mode) string {
	if fast(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	walk(s, m, func(text string, _ bool) { b.WriteString(text) })
	return b.String()
}

// fast reports whether s is printable ASCII, which every mode keeps as is.
func fast(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// walk calls emit with s in order: runs of plain text and spelled-out
// hidden characters.
func walk(s string, m mode, emit func(text string, hidden bool)) {
	start := 0
	prev := rune(0)
	flush := func(i int) {
		if i > start {
			emit(s[start:i], false)
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			prev = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			flush(i)
			emit(fmt.Sprintf("<0x%02X>", c), true)
			r = 0 // a selector after it selects nothing
		case m == modeBlock && (r == '\n' || r == '\t'):
			i += n
			prev = r
			continue
		case m == modeLine && r == '\t':
			flush(i)
			emit("    ", false)
		case m == modeLine && r == '\n':
			flush(i)
			emit(" ⏎ ", false)
		case m == modeStrict || Hidden(prev, r):
			flush(i)
			emit(Spell(r), true)
		default:
			i += n
			prev = r
			continue
		}
		i += n
		start = i
		prev = r
	}
	flush(len(s))
}
