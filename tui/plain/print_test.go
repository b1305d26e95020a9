package plain

import (
	"bytes"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestPrinterTagsLanesAndCutsCoderOutputIntoCleanLines(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, false)
	p.Print(journal.Event{Lane: journal.System, Kind: "run-start", Text: "run r1"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "output", Text: "\x1b[1m● hel"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "output", Text: "lo\x1b[0m\r\nprogress 10%\rprogress 100%\r\npart"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "request", Text: "shell: rm -rf ~"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "decision", Text: "denied: rm -rf ~ (policy:x)"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "decision", Text: "allowed: ls (policy:y)"})
	p.Print(journal.Event{Lane: journal.Tool, Kind: "result", Text: "ls → exit 0\nsecond line"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "steer", Text: "add a test"})
	p.Print(journal.Event{Lane: journal.Adversary, Kind: "message", Text: "probe"})
	p.Flush()
	want := `[SYSTEM] run r1
[CODER] ● hello
[CODER] progress 100%
[APPROVAL] shell: rm -rf ~
[DENIED] denied: rm -rf ~ (policy:x)
[APPROVAL] allowed: ls (policy:y)
[TOOL] ls → exit 0
[TOOL] second line
[CODER] ↪ steering sent: add a test
[ADVERSARY] probe
[CODER] part
`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestColorOnlyWhenAsked(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, true)
	p.Print(journal.Event{Lane: journal.System, Text: "x"})
	if !bytes.Contains(out.Bytes(), []byte("\x1b[1;34m[SYSTEM]\x1b[0m x")) {
		t.Fatalf("coloured line = %q", out.String())
	}
}

func TestVisibleShowsHiddenAndLookAlikeCharacters(t *testing.T) {
	cases := map[string]string{
		"ls -la":              "ls -la",
		"rm\u200b -rf /":      "rm<U+200B> -rf /",
		"echo \u202eevil":     "echo <U+202E>evil",
		"c\u0430t secrets":    "c<U+0430>t secrets", // Cyrillic a
		"a\x1b[2Jb":           "a<U+001B>[2Jb",
		"tab\tand\nnewline\r": "tab\tand<U+000A>newline<U+000D>",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}
