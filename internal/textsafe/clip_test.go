package textsafe

import (
	"testing"
	"unicode/utf8"
)

func TestClipsNeverCutARuneInHalf(t *testing.T) {
	for _, c := range []struct {
		name, got, want string
	}{
		{"short", Clip("héllo", 5), "héllo"},
		{"runes", Clip("héllo wörld", 7), "héllo w…"},
		{"one line", ClipLine("  a\n\tb  c ", 10), "a b c"},
		{"one line cut", ClipLine("first line\nsecond line", 12), "first line s…"},
		{"bytes short", ClipBytes("abc", 3), "abc"},
		{"bytes at a boundary", ClipBytes("aé", 2), "a…"}, // é is two bytes: cutting at 2 would split it
		{"bytes", ClipBytes("日本語", 7), "日本…"},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, c.got, c.want)
		}
		if !utf8.ValidString(c.got) {
			t.Errorf("%s: %q is not UTF-8", c.name, c.got)
		}
	}
}
