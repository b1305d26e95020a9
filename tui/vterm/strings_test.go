package vterm

import (
	"strings"
	"testing"
)

// A control string holding UTF-8 is read whole: Claude Code's title
// "✳ Claude Code" (✳ is E2 9C B3, and 0x9C alone is the 8-bit String
// Terminator) is dropped, not printed on its input line (issue 37.3), cut
// between writes or not; an APC or DCS string with UTF-8 is swallowed
// too; colours set by OSC still take, and a lone 8-bit ST still ends a
// string.
func TestControlStringsHoldUTF8(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"title ended by BEL", "A\x1b]0;✳ Claude Code\aB", "AB"},
		{"title ended by ST", "A\x1b]0;✳ Claude Code\x1b\\B", "AB"},
		{"title with a four-byte character", "A\x1b]2;🏳️ ok\aB", "AB"},
		{"APC with UTF-8", "A\x1b_é ü\x1b\\B", "AB"},
		{"DCS with UTF-8", "A\x1bP1$r✳ x\x1b\\B", "AB"},
		{"a lone 8-bit ST ends a title", "A\x1b]0;t\x9cB", "AB"},
	} {
		for _, cut := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8} {
			term := New(20, 2)
			in := []byte(c.in)
			if cut > 0 && cut < len(in) {
				term.Write(in[:cut])
				term.Write(in[cut:])
			} else {
				term.Write(in)
			}
			got := strings.TrimRight(term.dump()[:strings.Index(term.dump(), "|")], "· ")
			if got != c.want {
				t.Errorf("%s, cut at %d: first row %q, want %q", c.name, cut, got, c.want)
			}
		}
	}
	term := New(10, 1)
	term.Write([]byte("\x1b]0;✳ x\a\x1b]11;rgb:12/34/56\a"))
	if term.bg == nil {
		t.Errorf("OSC 11 after a UTF-8 title set no background")
	}
}
