package textsafe

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"unicode ✓ café 日本", "unicode ✓ café 日本"},
		{"a\tb\nc", "a    b ⏎ c"},
		{"osc52 \x1b]52;c;ZXZpbA==\x07", "osc52 <U+001B>]52;c;ZXZpbA==<U+0007>"},
		{"title \x1b]0;pwned\x1b\\", "title <U+001B>]0;pwned<U+001B>\\"},
		{"ok\r\x1b[2Klanded", "ok<U+000D><U+001B>[2Klanded"},
		{"c1 \u009b31m \u0085", "c1 <U+009B>31m <U+0085>"},
		{"del\x7f", "del<U+007F>"},
		{"READ\u200bME.md", "READ<U+200B>ME.md"},
		{"bidi \u202egnp.exe\u202c \u2066x\u2069", "bidi <U+202E>gnp.exe<U+202C> <U+2066>x<U+2069>"},
		{"\ufeffbom soft\u00adhyphen", "<U+FEFF>bom soft<U+00AD>hyphen"},
		{"tag\U000E0041\U000E007F", "tag<U+E0041><U+E007F>"},
		{"nbsp\u00a0and\u3000", "nbsp<U+00A0>and<U+3000>"},
		{"filler\u3164\u115f cgj\u034f", "filler<U+3164><U+115F> cgj<U+034F>"},
		{"sep\u2028\u2029", "sep<U+2028><U+2029>"},
		{"bad \xff\xc2 utf8", "bad <0xFF><0xC2> utf8"},
		{"⚠️ warn", "⚠️ warn"},                            // an emoji's presentation selector stays
		{"a\ufe0f ⚠\ufe0f\ufe0f", "a<U+FE0F> ⚠️<U+FE0F>"}, // selectors that select nothing do not
		{"smuggle😀\U000E0100\U000E0101", "smuggle😀<U+E0100><U+E0101>"},
		{"private \ue0b0", "private <U+E0B0>"},
	}
	for _, tt := range tests {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBlockKeepsLayout(t *testing.T) {
	if got, want := Block("a\tb\nc\rd\x1b[m"), "a\tb\nc<U+000D>d<U+001B>[m"; got != want {
		t.Fatalf("Block = %q, want %q", got, want)
	}
}

func TestStrictSpellsAllButPrintableASCII(t *testing.T) {
	if got, want := Strict("rm -rf /tmp/х\t\n"), "rm -rf /tmp/<U+0445><U+0009><U+000A>"; got != want {
		t.Fatalf("Strict = %q, want %q", got, want)
	}
}

func TestPieces(t *testing.T) {
	got := Pieces("ab\u200bcd", false)
	want := []Piece{{"ab", false}, {"<U+200B>", true}, {"cd", false}}
	if len(got) != len(want) {
		t.Fatalf("Pieces = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Pieces = %+v, want %+v", got, want)
		}
	}
}

func TestTermLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"a\tb", "a    b"},
		{"10%\r50%\r100%", "100%"},
		{"crlf\r", "crlf"},
		{"\x1b]0;window title\x07after", "after"},
		{"\x1b]52;c;ZXZpbA==\x1b\\clip", "clip"},
		{"\x1b]8;;file:///etc/passwd\x1b\\https://example.com\x1b]8;;\x1b\\", "https://example.com"},
		{"\u009d8;;file:///etc/passwd\u009chere", "here"},
		{"\x1b(Bcharset", "charset"},
		{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"bell\x07 bacx\x08k", "bell<U+0007> back"},
		{"c1 \u009b31mcsi", "c1 csi"},
		{"c1 \u0085nel", "c1 <U+0085>nel"},
		{"unicode ✓ café", "unicode ✓ café"},
		{"bidi \u202eevil", "bidi <U+202E>evil"},
		{"cut \x1b[3", "cut "},
	}
	for _, tt := range tests {
		if got := TermLine(tt.in); got != tt.want {
			t.Errorf("TermLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// unsafe reports the first rune in s a terminal could act on or hide.
func unsafe(s string, allowLayout bool) (rune, bool) {
	prev := rune(0)
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				return r, true
			}
		}
		if allowLayout && (r == '\n' || r == '\t') {
			prev = r
			continue
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Bidi_Control, r) ||
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || r == 0x200b || r == 0xfeff ||
			unicode.Is(unicode.Variation_Selector, r) && !unicode.Is(unicode.So, prev) {
			return r, true
		}
		prev = r
	}
	return 0, false
}

func FuzzSanitizers(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;eA==\x07", "a\r\x1b[2Kb", "\u202e\u2066\u200b\ufeff",
		"\xff\xfe", "\u009b1m", "⚠\ufe0f\ufe0f", "x\U000E0041", "\t\n\r", "\x1b]8;;u\x1b\\t\x1b]8;;\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, c := range map[string]struct {
			fn     func(string) string
			layout bool
		}{"Line": {Line, false}, "Block": {Block, true}, "Strict": {Strict, false}, "TermLine": {TermLine, false}} {
			out := c.fn(s)
			if r, bad := unsafe(out, c.layout); bad {
				t.Fatalf("%s(%q) = %q holds %U", name, s, out, r)
			}
			if name != "TermLine" && c.fn(out) != out {
				t.Fatalf("%s is not idempotent on %q: %q then %q", name, s, out, c.fn(out))
			}
			if name == "TermLine" && Line(out) != out {
				t.Fatalf("TermLine(%q) = %q, which Line changes", s, out)
			}
		}
		if out := Strict(s); strings.IndexFunc(out, func(r rune) bool { return r < 0x20 || r > 0x7e }) >= 0 {
			t.Fatalf("Strict(%q) = %q is not printable ASCII", s, out)
		}
		if Clean(s) != (Line(s) == s) {
			t.Fatalf("Clean(%q) = %v, but Line gives %q", s, Clean(s), Line(s))
		}
		var joined strings.Builder
		for _, p := range Pieces(s, false) {
			joined.WriteString(p.Text)
		}
		if joined.String() != Line(s) {
			t.Fatalf("Pieces(%q) joined = %q, Line = %q", s, joined.String(), Line(s))
		}
	})
}

func TestJSONEscapesHiddenCharacters(t *testing.T) {
	in := map[string]string{"t": "a\x1b]52;c;eA==\x07\u009b\u202e\u200b\U000E0041 café ⚠\ufe0f\x7f"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := JSON(b)
	if r, bad := unsafe(string(out), false); bad {
		t.Fatalf("JSON(%s) = %s holds %U", b, out, r)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["t"] != in["t"] {
		t.Fatalf("JSON changed the value: %s → %q (%v)", out, back, err)
	}
	if !strings.Contains(string(out), "café ⚠\ufe0f") {
		t.Fatalf("JSON escaped visible text: %s", out)
	}
}
