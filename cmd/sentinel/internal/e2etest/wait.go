package e2etest

import (
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// Pace is how often a wait of these helpers looks again at what costs a
// process or a file read (a journal, the service, a screen).
const Pace = 100 * time.Millisecond

// Until reports whether cond held before HangBound, looking every Pace:
// the bound is for a hung run, never a speed check.
func Until(cond func() bool) bool { return poll.Paced(Pace, HangBound, cond) }

// Eventually waits (Until) for cond and fails t with what and last(), what
// was last seen, when it never held.
func Eventually(t testing.TB, what string, cond func() bool, last func() string) {
	t.Helper()
	if !Until(cond) {
		seen := ""
		if last != nil {
			seen = "; last seen:\n" + last()
		}
		t.Fatalf("never: %s (waited %v, a bound on a hang)%s", what, HangBound, seen)
	}
}
