package textsafe

import (
	"strings"
	"unicode/utf8"
)

// TermLine turns one line of a program's raw terminal output into text for
// Line display, the way a terminal would have left it: a carriage return
// starts the line over (progress bars), a backspace takes back the character
// before it, and escape sequences — CSI, OSC (titles, clipboard writes,
// hyperlinks: the link's text stays, its target goes), DCS and the rest,
// seven- or eight-bit — are removed. Everything else goes through Line, so
// a stray BEL or a bidi override is spelled out, not obeyed.
func TermLine(raw string) string {
	raw = strings.TrimSuffix(raw, "\r")
	if i := strings.LastIndexByte(raw, '\r'); i >= 0 {
		raw = raw[i+1:]
	}
	if fast(raw) {
		return raw
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0x1b:
			i = skipEscape(raw, i+1)
			continue
		case c == 0x08:
			if len(b) > 0 {
				_, n := utf8.DecodeLastRune(b)
				b = b[:len(b)-n]
			}
			i++
			continue
		case c == 0xc2 && i+1 < len(raw) && raw[i+1] >= 0x80 && raw[i+1] < 0xa0:
			switch raw[i+1] {
			case 0x9b: // CSI
				i = skipCSI(raw, i+2)
				continue
			case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
				i = skipString(raw, i+2)
				continue
			}
		}
		b = append(b, c)
		i++
	}
	return Line(string(b))
}

// skipEscape returns the index after the escape sequence whose ESC was at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// intermediates, then one final byte
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	return min(i+1, len(s))
}

// skipString returns the index after a control string's terminator: BEL,
// ST (ESC \) or the eight-bit ST (U+009C).
func skipString(s string, i int) int {
	for j := i; j < len(s); j++ {
		switch {
		case s[j] == 0x07:
			return j + 1
		case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
			return j + 2
		case s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0x9c:
			return j + 2
		}
	}
	return len(s)
}

// skipCSI returns the index after a CSI sequence's final byte.
func skipCSI(s string, i int) int {
	for ; i < len(s); i++ {
		if s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
	}
	return len(s)
}
