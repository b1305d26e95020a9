package runner

import (
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// A step that begins when the views have been silent for longer than a
// teller's interval says what it does at once, not an interval after its
// own start: the silences of consecutive steps do not add up. Seen failing
// without say_clock.go: the step's first line waited the whole (here an
// hour long) interval and the hang bound ended the test.
func TestAStepAfterASilenceSaysWhatItDoesAtOnce(t *testing.T) {
	// Not parallel: it sets the package's tellers' interval and clock.
	every, last := tellEvery.Load(), lastSaid.Load()
	t.Cleanup(func() { tellEvery.Store(every); lastSaid.Store(last) })
	tellEvery.Store(int64(time.Hour))
	lastSaid.Store(time.Now().Add(-2 * time.Hour).UnixNano())
	for name, step := range map[string]func(func(), func() error) error{
		"a run's step": func(said func(), fn func() error) error {
			return sayWhile(func(journal.Lane, journal.Kind, string, any) { said() }, stepLanding, fn)
		},
		"the run's start": func(said func(), fn func() error) error {
			s := sayStarting(func(string) { said() })
			defer s.end()
			return fn()
		},
	} {
		lastSaid.Store(time.Now().Add(-2 * time.Hour).UnixNano())
		saidCh := make(chan struct{}, 8)
		err := step(func() { saidCh <- struct{}{} }, func() error {
			select {
			case <-saidCh:
			case <-time.After(time.Minute): // a hang bound
				t.Errorf("%s: nothing said after an hour's silence", name)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Once a line was said, the next teller waits its interval from it:
	// a step just after a line says nothing at once.
	MarkSaid()
	if d := nextSay(time.Now()); d < 59*time.Minute {
		t.Errorf("just after a line the next waits %s, want about the interval (an hour)", d)
	}
}
