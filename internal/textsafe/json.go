package textsafe

import (
	"fmt"
	"unicode/utf8"
)

// JSON rewrites JSON text from encoding/json so that every character Line
// would spell out is a \uXXXX escape instead: the same JSON value, safe to
// print. (encoding/json escapes C0 controls but leaves DEL, C1 controls,
// bidi and zero-width characters raw.) Outside strings JSON text is ASCII, so
// only string contents change.
func JSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	prev := rune(0)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case r >= 0x7f && Hidden(prev, r):
			if r > 0xffff {
				r -= 0x10000
				out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		default:
			out = append(out, b[i:i+n]...)
		}
		prev = r
		i += n
	}
	return out
}
