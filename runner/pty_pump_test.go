package runner

import (
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// pumpOutput hands over output that waits (no EOF, no full chunk) after a
// frame, never splits a rune across chunks, and flushes the rest at EOF.
func TestPumpOutputFlushesWaitingOutputWholeRunes(t *testing.T) {
	t.Parallel()
	r, w := io.Pipe()
	chunks := make(chan string, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pumpOutput(r, time.Millisecond, 1<<20, func(b []byte) { chunks <- string(b) })
	}()
	next := func(what string) string {
		t.Helper()
		select {
		case c := <-chunks:
			return c
		case <-time.After(time.Minute): // a bound on a hang
			t.Fatalf("no chunk for %s", what)
			return ""
		}
	}
	é := "é"
	if _, err := io.WriteString(w, "hello "+é[:1]); err != nil {
		t.Fatal(err)
	}
	// The writer now waits: what is whole goes out without an EOF.
	if got := next("output that waits"); got != "hello " {
		t.Fatalf("first chunk = %q, want %q (the rune's first byte held back)", got, "hello ")
	}
	if _, err := io.WriteString(w, é[1:]+" world"); err != nil {
		t.Fatal(err)
	}
	if got := next("the rest of the rune"); got != é+" world" || !utf8.ValidString(got) {
		t.Fatalf("second chunk = %q, want %q", got, é+" world")
	}
	io.WriteString(w, "tail"+é[:1])
	w.Close()
	var rest strings.Builder
	for {
		select {
		case c := <-chunks:
			rest.WriteString(c)
			continue
		case <-done:
		}
		break
	}
	for len(chunks) > 0 {
		rest.WriteString(<-chunks)
	}
	if rest.String() != "tail"+é[:1] {
		t.Fatalf("after EOF: %q, want everything flushed", rest.String())
	}
}
