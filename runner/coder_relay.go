package runner

import (
	"io"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// After a coder ends by itself its last output is still on the way to the
// journal: the relay reads what is left on the pty and journals it, and on
// a loaded machine that can take seconds. The coder's exit waits for the
// relay to be done, or to have been idle for relayIdle (nothing read,
// nothing being journaled: a sandbox's own processes may hold the pty open
// and silent forever), or, at the most, relayHang (they may also print
// forever). A stop keeps its short drain (stopDrain).
var (
	relayIdle = 2 * time.Second
	relayHang = time.Minute
)

// Test hooks: relayHandOn runs before each chunk is handed on (journaled),
// relayWaited each time the wait finds the relay still at work.
var (
	relayHandOn = func() {}
	relayWaited = func() {}
)

// relayWatch counts what a coder's output relay has moved.
type relayWatch struct {
	read   atomic.Int64 // bytes read from the pty
	handed atomic.Int64 // bytes handed on to the journal
	busy   atomic.Int32 // chunks being handed on now
}

// reader counts what the relay reads from r.
func (w *relayWatch) reader(r io.Reader) io.Reader { return relayReader{r, w} }

type relayReader struct {
	r io.Reader
	w *relayWatch
}

func (c relayReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.w.read.Add(int64(n))
	return n, err
}

// emit wraps the relay's emit so the wait sees a chunk being journaled.
func (w *relayWatch) emit(emit func([]byte)) func([]byte) {
	return func(b []byte) {
		w.busy.Add(1)
		defer w.busy.Add(-1)
		relayHandOn()
		emit(b)
		w.handed.Add(int64(len(b)))
	}
}

// quiet says nothing is being handed on and nothing read waits to be (but
// the start of a rune the relay holds back for its end).
func (w *relayWatch) quiet() bool {
	return w.busy.Load() == 0 && w.read.Load()-w.handed.Load() < utf8.UTFMax
}

// settle waits for done, or for the relay to stay quiet and move nothing
// for a whole idle interval, or for hang; it says whether the relay was done.
func (w *relayWatch) settle(done <-chan struct{}, idle, hang time.Duration) bool {
	bound := time.NewTimer(hang)
	defer bound.Stop()
	tick := time.NewTicker(idle)
	defer tick.Stop()
	moved := w.read.Load() + w.handed.Load()
	for {
		select {
		case <-done:
			return true
		case <-bound.C:
			return false
		case <-tick.C:
			now := w.read.Load() + w.handed.Load()
			if now == moved && w.quiet() {
				return false
			}
			moved = now
			relayWaited()
		}
	}
}
