package runner

import "sync"

// latch is a signal raised once and re-armed for the next coder: the
// person's "the coder is done" and the gate's "start a fresh coder".
type latch struct {
	mu sync.Mutex
	ch chan struct{}
}

func newLatch() *latch { return &latch{ch: make(chan struct{})} }

// raise signals; raising a raised latch does nothing.
func (l *latch) raise() {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.ch:
	default:
		close(l.ch)
	}
}

// wait is closed when the latch is raised.
func (l *latch) wait() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ch
}

// take says whether the latch was raised, and re-arms it if so.
func (l *latch) take() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.ch:
		l.ch = make(chan struct{})
		return true
	default:
		return false
	}
}
