package runner

import (
	"errors"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A slow step says what it does, as a progress event the views show, for
// as long as it runs; its error is the step's.
func TestASlowStepSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	said := make(chan CheckProgress, 16)
	emit := func(lane journal.Lane, kind journal.Kind, text string, data any) {
		if lane == journal.System && kind == KindVerifyProgress {
			said <- data.(CheckProgress)
		}
	}
	boom := errors.New("boom")
	err := sayWhile(emit, stepPatch, func() error {
		select { // the step ends only once it was said during it
		case p := <-said:
			if p.Command != stepPatch || p.ElapsedMS < 0 {
				t.Errorf("said %+v, want the step's name and how long it took", p)
			}
		case <-time.After(time.Minute): // a hang bound
			t.Error("a slow step said nothing")
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("sayWhile returned %v, want the step's own error", err)
	}
}
