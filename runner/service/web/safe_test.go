package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// What the page shows is textsafe's text, and no character of it is
// markup: hidden characters are spelled out and marked, < > & " ' escaped.
func TestShownIsTextsafeAndEscaped(t *testing.T) {
	tmpl, err := (&Server{}).templates()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		"<script>alert(1)</script>\t",
		"\x1b]8;;javascript:alert(1)\x1b\\link\x1b]8;;\x1b\\",
		"abc\u202edef\u200bghi\u2066x\u2069",
		"a\rb\x00c\x7f\u0085d\xff",
		`" onmouseover="x" '` + "\u00a0",
	} {
		sh := Strict(in)
		if sh.String() != textsafe.Strict(in) {
			t.Fatalf("%q shows %q, textsafe %q", in, sh.String(), textsafe.Strict(in))
		}
		var b bytes.Buffer
		if err := tmpl.ExecuteTemplate(&b, "shown", sh); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		rest := strings.ReplaceAll(strings.ReplaceAll(out, `<span class="hidden">`, ""), "</span>", "")
		if strings.ContainsAny(rest, "<>\"'\x1b\u202e\u200b") {
			t.Fatalf("%q rendered with markup or hidden characters: %q", in, out)
		}
		hidden := 0
		for _, p := range sh {
			if p.Hidden {
				hidden++
			}
		}
		if hidden == 0 || strings.Count(out, `<span class="hidden">`) != hidden {
			t.Fatalf("%q: %d hidden characters, not each marked: %q", in, hidden, out)
		}
	}
}
