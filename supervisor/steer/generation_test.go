package steer

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A fresh coder that repeats the drift its predecessor was steered about is
// steered again: findings are per coder generation, not per run.
func TestWatcherSteersEachCoderGeneration(t *testing.T) {
	const restart journal.Kind = "restart-for-test"
	fresh := func(ev journal.Event) bool { return ev.Is(journal.System, restart) }
	for _, tc := range []struct {
		name     string
		newCoder func(journal.Event) bool
		want     int
	}{
		{"per generation", fresh, 2},
		{"no generations", nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent []string
			w := &Watcher{NewCoder: tc.newCoder, Steer: func(text string) error { sent = append(sent, text); return nil }}
			w.Observe(shell(t, 1, "go test ./... || true"))
			w.Observe(shell(t, 2, "go test ./... || true")) // the same coder again: told once
			w.Observe(journal.Event{Seq: 3, Lane: journal.System, Kind: restart})
			w.Observe(shell(t, 4, "go test ./... || true"))
			if len(sent) != tc.want {
				t.Fatalf("steered %d times, want %d: %q", len(sent), tc.want, sent)
			}
		})
	}
}
