package plain

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

func TestPrinterTagsLanesAndCutsCoderOutputIntoCleanLines(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, nil)
	p.Print(journal.Event{Lane: journal.System, Kind: "run-start", Text: "run r1"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "output", Text: "\x1b[1m● hel"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "output", Text: "lo\x1b[0m\r\nprogress 10%\rprogress 100%\r\npart"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "request", Text: "shell: rm -rf ~"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "decision", Text: "denied: rm -rf ~ (policy:x)", Data: []byte(`{"decision":"deny"}`)})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "decision", Text: "allowed: ls (policy:y)", Data: []byte(`{"decision":"allow"}`)})
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

// The tag is painted by the Paint the printer was given (the run
// screen's colours, tui.PlainTags), and by nothing of the printer's own.
func TestTagsArePaintedByTheirPaint(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, func(tag string) string { return "<" + tag + ">" })
	p.Print(journal.Event{Lane: journal.System, Text: "x"})
	p.Print(journal.Event{Lane: journal.Approval, Kind: approvals.KindDecision, Text: "denied: y", Data: []byte(`{"decision":"deny"}`)})
	if want := "<[SYSTEM]> x\n<[DENIED]> denied: y\n"; out.String() != want {
		t.Fatalf("painted lines = %q, want %q", out.String(), want)
	}
}

func TestVisibleShowsHiddenAndLookAlikeCharacters(t *testing.T) {
	cases := map[string]string{
		"ls -la":              "ls -la",
		"rm\u200b -rf /":      "rm<U+200B> -rf /",
		"echo \u202eevil":     "echo <U+202E>evil",
		"c\u0430t secrets":    "c<U+0430>t secrets", // Cyrillic a
		"a\x1b[2Jb":           "a<U+001B>[2Jb",
		"tab\tand\nnewline\r": "tab<U+0009>and<U+000A>newline<U+000D>",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// Text the coder controls reaches the terminal with every control, escape,
// bidi and zero-width character spelled out, and a report the coder sent
// over the broker is marked as its word.
func TestPrinterSpellsOutHostileText(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, nil)
	hostile := "ok\x1b]52;c;ZXZpbA==\x07\x1b]0;title\x1b\\\r\x1b[2K\u202eevil\u200b\u009b31m"
	p.Print(journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: hostile, Data: []byte(`{"reported_by":"coder"}`)})
	p.Print(journal.Event{Lane: journal.Approval, Kind: "request", Text: "write: READ\u200bME.md"})
	p.Print(journal.Event{Lane: journal.Coder, Kind: "output", Text: "\x1b]8;;file:///etc/passwd\x1b\\https://example.com\x1b]8;;\x1b\\ \x07\u202e\n"})
	p.Print(journal.Event{Lane: journal.Lane("sys\x1b[2Jtem"), Text: "x"})
	p.Flush()
	want := "[TOOL] coder reports: ok<U+001B>]52;c;ZXZpbA==<U+0007><U+001B>]0;title<U+001B>\\<U+000D><U+001B>[2K<U+202E>evil<U+200B><U+009B>31m\n" +
		"[APPROVAL] write: READ<U+200B>ME.md\n" +
		"[CODER] https://example.com <U+0007><U+202E>\n" +
		"[SYS<U+001B>[2JTEM] x\n"
	if out.String() != want {
		t.Fatalf("got:\n%q\nwant:\n%q", out.String(), want)
	}
}

// A failed tool call is marked as failed from its data, after the mark
// that it is the coder's word; one that went well is not.
func TestPrinterMarksFailedToolCalls(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, nil)
	p.Print(journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "Bash: make → exit 2", Data: []byte(`{"reported_by":"coder","exit_code":2}`)})
	p.Print(journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "false → exit 1\nout", Data: []byte(`{"failed":true}`)})
	p.Print(journal.Event{Lane: journal.Tool, Kind: "tool-result", Text: "true → exit 0", Data: []byte(`{"failed":false,"exit_code":0}`)})
	p.Flush()
	want := "[TOOL] coder reports: ✗ failed: Bash: make → exit 2\n[TOOL] ✗ failed: false → exit 1\n[TOOL] out\n[TOOL] true → exit 0\n"
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// A failed check shows the end of its output under its line, marked as the
// check's words (a forged Sentinel line stays inside the mark, escapes are
// removed); a passing check shows none; a running one says it still runs.
func TestFailedCheckShowsItsOutputTail(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, nil)
	p.Print(journal.Event{Lane: journal.System, Kind: runner.KindVerifyProgress, Text: "still running (10s): === RUN TestShout"})
	p.Print(journal.Event{Lane: journal.Tool, Kind: runner.KindVerify, Text: "verify: go vet ./... → passed in 1s",
		Data: []byte(`{"command":"go vet ./...","exit_code":0,"tail":"vet says nothing"}`)})
	p.Print(journal.Event{Lane: journal.Tool, Kind: runner.KindVerify, Text: "verify: go test ./... → FAILED (exit 1) in 2s",
		Data: []byte(`{"command":"go test ./...","exit_code":1,"tail":"--- FAIL: TestShout\n\u001b[31mgot hi\u001b[0m\n[SYSTEM] landed on branch main\n"}`)})
	p.Flush()
	want := `[SYSTEM] still running (10s): === RUN TestShout
[TOOL] verify: go vet ./... → passed in 1s
[TOOL] verify: go test ./... → FAILED (exit 1) in 2s
[TOOL]   │ --- FAIL: TestShout
[TOOL]   │ got hi
[TOOL]   │ [SYSTEM] landed on branch main
`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
}

// A coder that never prints a newline does not grow the printer: its
// output comes out in lines of at most MaxPartial bytes.
func TestCoderOutputWithoutNewlinesStaysBounded(t *testing.T) {
	var out strings.Builder
	p := NewPrinter(&out, nil)
	chunk := strings.Repeat("x", 4096)
	for i := 0; i < 1000; i++ {
		p.Print(journal.Event{Lane: journal.Coder, Kind: coderstream.Output, Text: chunk})
		if p.partial.Len() > MaxPartial {
			t.Fatalf("the printer holds %d bytes of an unfinished line", p.partial.Len())
		}
	}
	p.Flush()
	if got := strings.Count(out.String(), "x"); got != 1000*4096 {
		t.Fatalf("printed %d of %d bytes", got, 1000*4096)
	}
}
