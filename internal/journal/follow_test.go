package journal

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// A watcher of a live run gets each event as it is appended, while the
// writer is still at work, and everything written before the writer ended.
func TestFollowDeliversEventsAsTheyAreWrittenUntilTheWriterEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.Append(System, "run-start", "first", nil); err != nil {
		t.Fatal(err)
	}
	var live atomic.Bool
	live.Store(true)
	got := make(chan string, 8)
	done := make(chan error, 1)
	go func() {
		done <- Follow(context.Background(), path, live.Load, func(ev Event) error { got <- ev.Text; return nil })
	}()
	hang := time.After(time.Minute) // a bound on a hang, not a timing
	want := func(text string) {
		t.Helper()
		select {
		case s := <-got:
			if s != text {
				t.Fatalf("got event %q, want %q", s, text)
			}
		case err := <-done:
			t.Fatalf("Follow returned (%v) while the run was live, before %q was shown", err, text)
		case <-hang:
			t.Fatalf("%q was never shown", text)
		}
	}
	want("first")
	// Written after the watcher reached the end: it must still be shown.
	if _, err := j.Append(Coder, "output", "second", nil); err != nil {
		t.Fatal(err)
	}
	want("second")
	// The writer's last event, then its end: shown, and Follow returns.
	if _, err := j.Append(System, "run-end", "last", nil); err != nil {
		t.Fatal(err)
	}
	live.Store(false)
	want("last")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-hang:
		t.Fatal("Follow did not return after the writer ended")
	}
}

// A finished journal (live nil) is read once, to its end; a stopped
// watcher (ctx ended) returns nil.
func TestFollowReturnsAtTheEndOfAFinishedJournalAndWhenStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	j, err := Open(path, "r1")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	j.Append(System, "run-start", "a", nil)
	j.Append(System, "run-end", "b", nil)
	var n int
	if err := Follow(context.Background(), path, nil, func(Event) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("got %d events, %v; want 2, nil", n, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n = 0
	if err := Follow(ctx, path, func() bool { return true }, func(Event) error { n++; return nil }); err != nil || n != 2 {
		t.Fatalf("stopped watcher: got %d events, %v; want 2, nil", n, err)
	}
}
