package tui

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// syncBuffer is an output the renderer writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestRunShowsReplayedJournalAndExitsWhenDone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "events.jsonl")
	j, err := journal.Open(path, "r-replay-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range demoEvents() {
		if _, err := j.Append(e.Lane, e.Kind, e.Text, e.Data); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := j.Append(journal.System, "run-end", "", map[string]string{"status": "landed"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := ReplayFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Info().RunID != "r-replay-1" || s.Info().Coder != "demo" {
		t.Fatalf("info from the journal = %+v", s.Info())
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	out := &syncBuffer{}
	err = Run(context.Background(), s, Options{
		ExitWhenDone: true, Input: pr, Output: out, Size: [2]int{120, 40},
		ThemeDir: filepath.Join(dir, "themes"),
	})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	screen := ansi.Strip(out.String())
	for _, want := range []string{"r-replay-1", "run landed", "denied: downloads piped into a shell"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("output lacks %q:\n%s", want, screen)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "themes")); err != nil {
		t.Fatalf("theme dir not watched/created: %v", err)
	}
}

func TestForwardEventsCoalescesInOrderAndBounds(t *testing.T) {
	events := make(chan journal.Event, 10000)
	big := strings.Repeat("x", 300<<10)
	for i := 1; i <= 5000; i++ {
		events <- journal.Event{Seq: int64(i), Lane: journal.Coder, Kind: "output", Text: "y"}
	}
	for i := 5001; i <= 5008; i++ {
		events <- journal.Event{Seq: int64(i), Lane: journal.Coder, Kind: "output", Text: big}
	}
	close(events)
	var got []eventsMsg
	forwardEvents(context.Background(), events, func(m tea.Msg) { got = append(got, m.(eventsMsg)) }, time.Hour)
	var seq int64
	for _, b := range got {
		size := 0
		for _, e := range b {
			seq++
			if e.Seq != seq {
				t.Fatalf("event %d arrived as %d: order lost", e.Seq, seq)
			}
			size += len(e.Text)
		}
		if len(b) > maxBatch || size > maxBatchBytes+len(big) {
			t.Fatalf("a frame carried %d events, %d bytes", len(b), size)
		}
	}
	if seq != 5008 {
		t.Fatalf("delivered %d events, want 5008", seq)
	}
	if len(got) < 3 {
		t.Fatalf("5008 events came in %d frames; the caps should split them", len(got))
	}
}
