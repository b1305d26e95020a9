package runner

import (
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Steering findings are per coder generation: the run's own restart event
// is what starts one, and nothing else on the journal does.
func TestIsFreshCoderIsTheSystemRestart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ev   journal.Event
		want bool
	}{
		{journal.Event{Lane: journal.System, Kind: KindRestart}, true},
		{journal.Event{Lane: journal.Supervisor, Kind: KindRestart}, false}, // the reason, before the system line
		{journal.Event{Lane: journal.Coder, Kind: KindRestart}, false},      // the coder cannot forge a generation
		{journal.Event{Lane: journal.System, Kind: KindCoderStart}, false},
	} {
		if got := isFreshCoder(tc.ev); got != tc.want {
			t.Errorf("isFreshCoder(%s/%s) = %v, want %v", tc.ev.Lane, tc.ev.Kind, got, tc.want)
		}
	}
}
