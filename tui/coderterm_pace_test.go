package tui

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// A coder writing many times within a frame has the pane redrawn once, not
// on every write.
func TestTheCoderPaneRedrawsAtMostOnceAFrame(t *testing.T) {
	term := newCoderTerm(120, 40, func([]byte) {}, "")
	defer term.close()
	var redraws atomic.Int32
	term.setChanged(func() { redraws.Add(1) }, time.Hour)
	for range 20 {
		term.write("a line of test output\r\n", 0)
		term.flush()
	}
	if n := redraws.Load(); n != 1 {
		t.Fatalf("20 writes within a frame redrew the pane %d times, want once", n)
	}
}

// A change held back within a frame is drawn when the frame ends.
func TestTheCoderPaneDrawsAHeldBackChangeWhenTheFrameEnds(t *testing.T) {
	term := newCoderTerm(120, 40, func([]byte) {}, "")
	defer term.close()
	var redraws atomic.Int32
	term.setChanged(func() { redraws.Add(1) }, 20*time.Millisecond)
	term.write("first\r\n", 0)
	term.flush()
	term.write("second\r\n", 0)
	term.flush()
	if !poll.Until(10*time.Second, func() bool { return redraws.Load() >= 2 }) {
		t.Fatalf("the second write was never drawn (%d redraws)", redraws.Load())
	}
}
