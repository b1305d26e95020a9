package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A full-screen coder that prints far faster than the emulator parses: the
// output waiting for the emulator stays under its bound (the rest is read
// back from the journal), and the screen still ends exactly as the coder
// left it.
func TestTheEmulatorsBacklogIsBoundedAndReadBackFromTheJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(path, "r")
	if err != nil {
		t.Fatal(err)
	}
	info := testInfo()
	info.FullScreenCoder, info.Journal = true, path
	h := newHarness(t, info, "dark", 120, 40)
	h.press("z")
	// hold the emulator so nothing is parsed while the coder floods
	h.m.term.mu.Lock()
	smallBacklog(t)
	chunk := strings.Repeat("a line of test output\r\n", 200)
	most := 0
	const n = 100 // 460 KB, seven times the bound
	for i := 0; i < n; i++ {
		text := chunk
		if i == n-1 {
			text += "\x1b[2J\x1b[Hthe last screen"
		}
		e, err := j.Append(journal.Coder, coderstream.Output, text, nil)
		if err != nil {
			t.Fatal(err)
		}
		h.m.ingest([]journal.Event{e}) // the model's own path, without a redraw (which waits on the emulator)
		most = max(most, h.m.term.queued())
	}
	h.m.term.mu.Unlock()
	if most > maxPending+len(chunk) {
		t.Fatalf("%d bytes of output waited for the emulator in memory; the bound is %d", most, maxPending)
	}
	s := h.screen() // waits until everything written is parsed
	contains(t, s, "the last screen")
	notContains(t, s, "a line of test output")
	j.Close()
}

// The read-back parses every chunk once, in order: the screen shows the
// newest numbered lines, consecutive.
func TestTheEmulatorReadsBackEveryChunkInOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := journal.Open(path, "r")
	if err != nil {
		t.Fatal(err)
	}
	info := testInfo()
	info.FullScreenCoder, info.Journal = true, path
	h := newHarness(t, info, "dark", 120, 40)
	h.press("z")
	h.m.term.mu.Lock()
	smallBacklog(t)
	const n, per = 100, 200 // 100 chunks of 200 lines: 240 KB
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := 0; k < per; k++ {
			fmt.Fprintf(&b, "\r\nline %06d", i*per+k)
		}
		e, _ := j.Append(journal.Coder, coderstream.Output, b.String(), nil)
		h.m.ingest([]journal.Event{e})
	}
	h.m.term.mu.Unlock()
	s := h.screen()
	for k := n*per - 30; k < n*per; k++ {
		contains(t, s, fmt.Sprintf("line %06d", k))
	}
	if i, k := strings.Index(s, fmt.Sprintf("line %06d", n*per-2)), strings.Index(s, fmt.Sprintf("line %06d", n*per-1)); i < 0 || k < i {
		t.Fatal("the last lines are out of order")
	}
	j.Close()
}

// smallBacklog lowers the emulator's backlog bound for a test, so a flood
// past it parses in a moment.
func smallBacklog(t *testing.T) {
	old := maxPending
	maxPending = 64 << 10
	t.Cleanup(func() { maxPending = old })
}
