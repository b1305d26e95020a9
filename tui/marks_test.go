package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A page of old lines is read back from a mark near it in the journal, not
// by replaying the journal from its first event: with the journal's first
// line made unreadable after the run, a page from the middle of a long
// coder log still reads back, and agrees with the lines as they were shown.
func TestOlderLinesAreReadBackFromAMarkNotTheJournalStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(path, "r")
	if err != nil {
		t.Fatal(err)
	}
	info := testInfo()
	info.Coder, info.Journal = "command", path
	h := newHarness(t, info, "dark", 120, 40) // History: 1000 lines a pane
	const n = 30_000
	var batch []journal.Event
	for i := 0; i < n; i++ {
		// lines split across chunks: marks fall only where none is half made
		head := fmt.Sprintf("line %05d ", i)
		if i == 20_000 {
			head = "a needle in "
		}
		for _, text := range []string{head, "of the test log\r\n"} {
			e, err := j.Append(journal.Coder, coderstream.Output, text, nil)
			if err != nil {
				t.Fatal(err)
			}
			batch = append(batch, e)
		}
		if len(batch) >= 500 {
			h.settle(h.send(eventsMsg(batch)))
			batch = nil
		}
	}
	j.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first := bytes.IndexByte(b, '\n')
	copy(b[:first], bytes.Repeat([]byte{'x'}, first)) // unreadable from the start
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}

	p := h.m.panes[paneCoder]
	rows := h.m.paneRows(paneCoder)
	p.offset = p.count() - 15_000 // the view's newest line is 15,000
	h.settle(h.m.fetchOlder(p, rows))
	if h.m.flash != "" {
		t.Fatalf("reading back line 15,000 of %d: %s", n, h.m.flash)
	}
	for _, i := range []int64{15_000 - int64(rows), 14_999} {
		l, ok := p.older.at(i)
		if want := fmt.Sprintf("line %05d of the test log", i); !ok || l.text != want {
			t.Fatalf("line %d read back as %q (%v), want %q", i, l.text, ok, want)
		}
	}
	// a search past the kept lines goes back a stretch between marks at a
	// time, newest first: it finds line 20,000 without reading line 1
	h.press("z")
	h.press("G")
	h.press("/")
	h.typeText("needle")
	h.settle(h.send(keyMsg("enter")))
	if p.match != 20_000 || strings.Contains(h.m.flash, "could not read") {
		t.Fatalf("the match is line %d (flash %q), want 20000", p.match, h.m.flash)
	}
	contains(t, h.screen(), "a needle in of the test log")
}

// However long the run, a pane keeps at most maxMarks marks, oldest first,
// and the one found for a line is at or before it.
func TestMarksStayBounded(t *testing.T) {
	var ms marks
	const lines = 10_000_000
	for total := int64(1); total <= lines; total += 3 {
		ms.note(total, total)
	}
	if len(ms.at) > maxMarks {
		t.Fatalf("%d marks after %d lines, want at most %d", len(ms.at), lines, maxMarks)
	}
	for i := 1; i < len(ms.at); i++ {
		if ms.at[i].line <= ms.at[i-1].line {
			t.Fatalf("marks out of order at %d: %+v", i, ms.at[i-1:i+1])
		}
	}
	for _, line := range []int64{0, 999, 5_000_000, lines} {
		if m := ms.before(line); m.line > line || (line > 2*ms.every && line-m.line > ms.every+3) {
			t.Fatalf("the mark for line %d is %+v (every %d)", line, m, ms.every)
		}
	}
}
