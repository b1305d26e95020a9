package poll

import "time"

// Pace is how often Until looks again.
const Pace = 20 * time.Millisecond

// Until reports whether cond held before bound passed, looking every Pace
// (first at once).
func Until(bound time.Duration, cond func() bool) bool {
	return Paced(Pace, bound, cond)
}

// Paced is Until looking every pace: for a condition that costs a process
// or a file read to look at (a tmux screen, a journal), a slower pace
// keeps the waiting test from loading the machine it waits on.
func Paced(pace, bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	tick := time.NewTicker(pace)
	defer tick.Stop()
	for {
		if cond() {
			return true
		}
		if !time.Now().Before(deadline) {
			return cond()
		}
		<-tick.C
	}
}

// TB is what Must needs of a *testing.T or *testing.B.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Must is Until failing tb with "never: what" when cond did not hold
// within bound.
func Must(tb TB, bound time.Duration, what string, cond func() bool) {
	tb.Helper()
	if !Until(bound, cond) {
		tb.Fatalf("never: %s (waited %v, a bound on a hang)", what, bound)
	}
}

// ClockPast waits until the wall clock's whole seconds are past sec: a
// file changed now then has a change time that differs from one stamped at
// sec (git's racy-clean check, and any cache keyed on seconds, tell the two
// apart only then). It reports false if bound passed first.
func ClockPast(sec int64, bound time.Duration) bool {
	return Paced(50*time.Millisecond, bound, func() bool { return time.Now().Unix() > sec })
}
