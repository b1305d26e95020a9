package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A lossless subscriber that does not read while a coder floods the journal
// holds a bounded queue (the rest is read back from the file), and still
// gets every event, in order, with nothing twice.
func TestASlowLosslessSubscriberHoldsABoundedQueue(t *testing.T) {
	j, err := Open(filepath.Join(t.TempDir(), "e.jsonl"), "r")
	if err != nil {
		t.Fatal(err)
	}
	ch, cancel := j.Subscribe(1, true)
	defer cancel()
	line := strings.Repeat("a line of test output ", 40)
	const n = 3 * maxQueued
	most, mostBytes := 0, 0
	for i := 0; i < n; i++ {
		if _, err := j.Append(Coder, "output", line, nil); err != nil {
			t.Fatal(err)
		}
		j.mu.Lock()
		for _, s := range j.subs {
			most, mostBytes = max(most, len(s.queue)), max(mostBytes, s.queuedBytes)
		}
		j.mu.Unlock()
	}
	if most > maxQueued || mostBytes > maxQueuedBytes+len(line) {
		t.Fatalf("the slow subscriber held %d events (%d bytes); the bound is %d (%d bytes)", most, mostBytes, maxQueued, maxQueuedBytes)
	}
	j.Close()
	var want int64 = 1
	for ev := range ch {
		if ev.Seq != want || ev.Text != line {
			t.Fatalf("got event %d (%q…), want %d", ev.Seq, ev.Text[:min(len(ev.Text), 10)], want)
		}
		want++
	}
	if want != n+1 {
		t.Fatalf("got %d events, want %d", want-1, n)
	}
}

// The journal's failure, which is never in the file, still reaches a
// subscriber that fell behind, after everything that is in the file.
func TestABehindSubscriberIsToldTheJournalFailedLast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Repeat("x", 2000)
	fd := &fullDisk{File: f, left: 1 << 30}
	j := newJournal(fd, path, "r1", 0, 0)
	evs, cancel := j.Subscribe(1, true)
	defer cancel()
	const n = maxQueued + 10
	for i := 0; i < n; i++ {
		if _, err := j.Append(Coder, "output", line, nil); err != nil {
			t.Fatal(err)
		}
	}
	fd.left = 0
	if _, err := j.Append(System, "x", "", nil); err == nil {
		t.Fatal("the append fitted")
	}
	got := 0
	for ev := range evs {
		got++
		if got <= n && ev.Seq != int64(got) {
			t.Fatalf("event %d has seq %d", got, ev.Seq)
		}
		if got == n+1 {
			if ev.Kind != KindFailed {
				t.Fatalf("the last event is %+v; want the failure", ev)
			}
			j.Close()
		}
	}
	if got != n+1 {
		t.Fatalf("got %d events, want %d and the failure", got, n)
	}
}

// Reopening a journal numbers on from its last line, read from the end.
func TestReopenReadsOnlyTheLastLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, _ := Open(path, "r")
	for i := 0; i < 100; i++ {
		j.Append(Coder, "output", strings.Repeat("y", 70000), nil) // lines longer than one read
	}
	j.Close()
	j, err := Open(path, "r")
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := j.Append(System, "c", "", nil)
	j.Close()
	if ev.Seq != 101 {
		t.Fatalf("seq after reopen = %d, want 101", ev.Seq)
	}
}
