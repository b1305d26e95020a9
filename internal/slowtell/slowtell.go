// Package slowtell keeps a long step from being silent: once a step has
// run for a moment (After) it is told, and again every Every until it
// ends. Sentinel's checkpoints and git-dir sweeps over a big folder use it
// to say what they do. The moment is the caller's to pass (After, or 0 in
// a test: told at once), so no test changes it for another.
//
// It must not decide anything: it only calls the caller's tell.
package slowtell

import (
	"sync"
	"time"
)

// After is how long a step runs before it is told, in the program.
const After = time.Second

// Every is how often a step still running is told again.
const Every = 2 * time.Second

// Start calls tell with the time the step has taken once it has run
// after (at once, before Start returns, when after is 0), and every Every
// after that, until done is called. done waits for a tell under way, so
// none comes after it.
func Start(after time.Duration, tell func(took time.Duration)) (done func()) {
	t0 := time.Now()
	if after <= 0 {
		tell(0)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		wait := after
		if wait <= 0 {
			wait = Every
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				tell(time.Since(t0))
				t.Reset(Every)
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			wg.Wait()
		})
	}
}

// Took is d for a person: "3s", or "less than a second".
func Took(d time.Duration) string {
	if d < time.Second {
		return "less than a second"
	}
	return d.Round(time.Second).String()
}
