package runner

import "testing"

func TestLatchRaisesOnceAndRearms(t *testing.T) {
	t.Parallel()
	l := newLatch()
	if l.take() {
		t.Fatal("a fresh latch was taken")
	}
	w := l.wait()
	l.raise()
	l.raise() // a second "done" is harmless
	select {
	case <-w:
	default:
		t.Fatal("wait did not close on raise")
	}
	if !l.take() {
		t.Fatal("a raised latch was not taken")
	}
	select {
	case <-l.wait():
		t.Fatal("a taken latch is still raised: the next coder would inherit the last one's signal")
	default:
	}
	if l.take() {
		t.Fatal("a re-armed latch was taken twice")
	}
}
