package runner

import (
	"sync/atomic"
	"time"
)

// Each slow-step teller (sayWhile's steps, the run's start, the seed wait)
// spoke first one seedWaitEvery after its own step began, so where one
// step handed over to the next the screen stayed silent for what was left
// of the first one's second plus a whole second of the next: measured with
// `sentinel demo --plain` at load 35-72, 2.2 s before "landing the change"
// and 3.8 s between the demo's sample and the run's first start line. A
// teller now speaks first one seedWaitEvery after the last line any teller
// said (at once when that is past), and every seedWaitEvery after its own,
// so the silences between steps do not add up.

// lastSaid is when a teller last said a line (Unix nanoseconds; 0: never).
var lastSaid atomic.Int64

// MarkSaid records that a teller said a line just now. The demo's own teller
// (cmd/sentinel) calls it too.
func MarkSaid() { lastSaid.Store(time.Now().UnixNano()) }

// tellEvery is how often a teller speaks (seedWaitEvery); a test makes it
// longer, to see who speaks without waiting for it.
var tellEvery atomic.Int64

func init() { tellEvery.Store(int64(seedWaitEvery)) }

// nextSay is how long a teller waits, at now, before its next line: until
// tellEvery after the last line any teller said, never longer.
func nextSay(now time.Time) time.Duration {
	every := time.Duration(tellEvery.Load())
	last := lastSaid.Load()
	if last == 0 {
		return every
	}
	d := time.Unix(0, last).Add(every).Sub(now)
	return max(0, min(d, every))
}

// sayUntil calls say with the time now each time nextSay has passed, until
// stop is closed.
func sayUntil(stop <-chan struct{}, say func(now time.Time)) {
	t := time.NewTimer(nextSay(time.Now()))
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case now := <-t.C:
			say(now)
			MarkSaid()
			t.Reset(nextSay(time.Now()))
		}
	}
}

// startSaying calls wait with the time since start each time a teller
// speaks (sayUntil), until the stop it returns is called; nothing is said
// after stop returns.
func startSaying(start time.Time, wait func(time.Duration)) (stop func()) {
	quit, said := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(said)
		sayUntil(quit, func(now time.Time) {
			if wait != nil {
				wait(now.Sub(start))
			}
		})
	}()
	return func() {
		close(quit)
		<-said
	}
}
