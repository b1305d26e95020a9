package runner

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
)

func TestLastStopFailure(t *testing.T) {
	ev := func(lane journal.Lane, kind journal.Kind, text string) journal.Event {
		return journal.Event{Lane: lane, Kind: kind, Text: text}
	}
	fail := ev(journal.Coder, coderstream.CoderStopFailure, "StopFailure: unknown: API Error: 400")
	stop := ev(journal.Coder, coderstream.CoderStop, "Stop")
	cases := []struct {
		name string
		evs  []journal.Event
		want string
	}{
		{"no stop at all", nil, ""},
		{"the last turn failed", []journal.Event{stop, fail}, "unknown: API Error: 400"},
		{"a later turn went well", []journal.Event{fail, stop}, ""},
		{"only on the coder's lane", []journal.Event{ev(journal.System, coderstream.CoderStopFailure, "x")}, ""},
	}
	for _, c := range cases {
		if got := lastStopFailure(c.evs); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
