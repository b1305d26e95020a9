package slowtell

import (
	"testing"
	"time"
)

// A step is told at once when after is 0, and nothing is told after done.
func TestStartTellsAndStops(t *testing.T) {
	t.Parallel()
	n := 0
	done := Start(0, func(time.Duration) { n++ })
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

// A step that ends before After is never told.
func TestAQuickStepIsNotTold(t *testing.T) {
	t.Parallel()
	told := make(chan struct{}, 1)
	done := Start(time.Hour, func(time.Duration) { told <- struct{}{} })
	done()
	select {
	case <-told:
		t.Fatal("a step that ended at once was told")
	default:
	}
}
