package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// settle runs cmd and hands every page read back from the journal to the
// model, as the program would, until nothing more is read.
func (h *harness) settle(cmd tea.Cmd) {
	h.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.settle(c)
		}
	case olderMsg:
		h.settle(h.send(msg))
	}
}

// A coder that streams a long test log: the panes keep a bounded window
// (lines and bytes), and scrolling to the top and searching still reach
// the oldest lines, read back from the journal.
func TestPanesKeepAWindowAndReadOlderLinesBackFromTheJournal(t *testing.T) {
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
		text := fmt.Sprintf("line %05d of the test log\r\n", i)
		if i == 17 {
			text = "a needle in an old line\r\n"
		}
		e, err := j.Append(journal.Coder, coderstream.Output, text, nil)
		if err != nil {
			t.Fatal(err)
		}
		if batch = append(batch, e); len(batch) == 500 {
			h.settle(h.send(eventsMsg(batch)))
			batch = nil
		}
	}
	j.Close()
	for _, p := range h.m.panes {
		if p.lines.len() > 1000 || p.lines.bytes > maxPaneBytes {
			t.Fatalf("pane %s keeps %d lines (%d bytes) after %d; the window is 1000 lines, %d bytes", lanes[p.id].title, p.lines.len(), p.lines.bytes, n, maxPaneBytes)
		}
	}
	h.press("z") // the coder pane alone
	notContains(t, h.screen(), "line 00000 of the test log")
	h.settle(h.send(keyMsg("g")))
	s := h.screen()
	contains(t, s, "line 00000 of the test log")
	contains(t, s, "line 00001 of the test log")
	notContains(t, s, olderPlaceholder)

	h.press("G")
	h.press("/")
	h.typeText("needle")
	h.settle(h.send(keyMsg("enter")))
	contains(t, h.screen(), "a needle in an old line")
	if m := h.m.panes[paneCoder].match; m != 17 {
		t.Fatalf("the match is line %d, want 17", m)
	}
}

// Long lines count against a pane's window in bytes, not only in lines.
func TestAPaneWindowIsBoundedInBytes(t *testing.T) {
	r := newRing(10_000)
	long := strings.Repeat("x", maxPartial)
	for i := 0; i < 2_000; i++ {
		r.add(line{tagCoder, long})
	}
	if r.bytes > maxPaneBytes || r.len()*maxPartial > maxPaneBytes {
		t.Fatalf("the ring keeps %d lines, %d bytes; the bound is %d bytes", r.len(), r.bytes, maxPaneBytes)
	}
	if r.total != 2_000 || r.at(r.len()-1).text != long {
		t.Fatalf("the ring lost count or its newest line")
	}
}
