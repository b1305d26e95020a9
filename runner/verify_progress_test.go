package runner

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A running check reports, at each tick, how long it has run and the last
// line it printed (an unfinished line counts: a progress bar never ends its
// line); all its output still reaches the buffer the tail is cut from.
func TestRunningCheckReportsElapsedAndLastLine(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	last := &lastLine{w: &out}
	start := time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC)
	tick, done, stopped := make(chan time.Time), make(chan struct{}), make(chan struct{})
	evs := make(chan journal.Event)
	emit := func(lane journal.Lane, kind journal.Kind, text string, data any) {
		evs <- journal.Event{Lane: lane, Kind: kind, Text: text, Data: mustJSON(t, data)}
	}
	var got []journal.Event
	at := func(d time.Duration) { tick <- start.Add(d); got = append(got, <-evs) }
	go func() { defer close(stopped); reportProgress(tick, done, start, "go test ./...", last, emit) }()

	at(10 * time.Second)
	last.Write([]byte("=== RUN TestA\n--- PASS: TestA\n\n"))
	at(20 * time.Second)
	last.Write([]byte("downloading 40%\rdownloading 80%"))
	at(30 * time.Second)
	close(done)
	<-stopped

	want := []string{
		"still running (10s): no output yet from go test ./...",
		"still running (20s): --- PASS: TestA",
		"still running (30s): downloading 80%",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d progress events, want %d", len(got), len(want))
	}
	for i, ev := range got {
		p, ok := AsCheckProgress(ev)
		if !ok || ev.Text != want[i] || p.Command != "go test ./..." || p.Elapsed() != time.Duration(i+1)*10*time.Second {
			t.Errorf("event %d: %q %+v, want %q", i, ev.Text, p, want[i])
		}
	}
	if !strings.Contains(out.String(), "--- PASS: TestA\n\ndownloading 40%\rdownloading 80%") {
		t.Errorf("output lost on its way to the tail: %q", out.String())
	}
	long := &lastLine{w: &out}
	long.Write([]byte(strings.Repeat("é", 500)))
	if l := long.Line(); len(l) > maxProgressLine+len("…") || !strings.HasSuffix(l, "…") {
		t.Errorf("a long last line is not cut: %d bytes", len(l))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
