package slowtell

import (
	"testing"
	"time"
)

// A step is told at once when After is 0, and nothing is told after done.
func TestStartTellsAndStops(t *testing.T) {
	After = 0
	t.Cleanup(func() { After = time.Second })
	n := 0
	done := Start(func(time.Duration) { n++ })
	if n != 1 {
		t.Fatalf("told %d times before Start returned, want 1", n)
	}
	done()
	after := n
	done() // twice is fine
	if n != after {
		t.Errorf("told after done")
	}
}
