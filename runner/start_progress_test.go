package runner

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A slow start says what it does before any view exists, and nothing once
// Start has returned.
func TestASlowStartSaysWhatItDoes(t *testing.T) {
	t.Parallel()
	said := make(chan string, 64)
	var ended atomic.Bool
	s := sayStarting(func(line string) {
		if ended.Load() {
			t.Errorf("said %q after the start ended", line)
		}
		said <- line
	})
	s.step("making the workspace")
	for {
		select {
		case line := <-said:
			if !strings.Contains(line, "making the workspace") {
				continue // said before the step was named
			}
		case <-time.After(time.Minute): // a hang bound
			t.Fatal("a slow start said nothing")
		}
		break
	}
	s.end()
	ended.Store(true)
	s.end() // twice is harmless
	sayStarting(nil).end()
}
