package textsafe

import (
	"strings"
	"unicode/utf8"
)

// Clip is s cut to its first n runes, with "…" after it when it was
// longer: never a rune cut in half. It spells nothing out (Line does).
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// ClipLine is s on one line (every run of white space, newlines
// included, one space; none at either end), then Clip.
func ClipLine(s string, n int) string {
	return Clip(strings.Join(strings.Fields(s), " "), n)
}

// ClipBytes is s cut to at most n bytes at a rune boundary, with "…"
// after it when it was longer: for a bound on bytes kept (a journal line),
// never a rune cut in half.
func ClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
