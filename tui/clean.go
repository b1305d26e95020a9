package tui

import (
	"strings"
	"unicode/utf8"
)

// cleanLine turns one raw terminal line into plain text in a single pass: a
// carriage return starts the line over (progress bars), escape sequences
// (CSI, OSC, DCS and the rest) are dropped, a tab becomes spaces and any
// other control character is removed. Text without control bytes is returned
// as is, without copying.
func cleanLine(raw string) string {
	raw = strings.TrimSuffix(raw, "\r")
	if i := strings.LastIndexByte(raw, '\r'); i >= 0 {
		raw = raw[i+1:]
	}
	if plainText(raw) {
		return raw
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == 0x1b:
			i = skipEscape(raw, i+1)
			continue
		case c == '\t':
			b = append(b, "    "...)
		case c == '\n':
			b = append(b, " ⏎ "...)
		case c < 0x20 || c == 0x7f:
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(raw[i:])
			if r == 0x9b { // the one-byte CSI
				i = skipCSI(raw, i+n)
				continue
			}
			if r >= 0x80 && r < 0xa0 || r == utf8.RuneError && n == 1 {
				i += n
				continue
			}
			b = append(b, raw[i:i+n]...)
			i += n
			continue
		}
		i++
	}
	return string(b)
}

// plainText reports whether s holds no control characters at all.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] < 0xa0 {
			return false
		}
	}
	return true
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
		// a string: up to BEL or ST (ESC \)
		for j := i + 1; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	// intermediates, then one final byte
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	return min(i+1, len(s))
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
