package poll

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestUntilReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	if !Until(time.Minute, func() bool { return n.Load() == 3 }) {
		t.Fatal("the condition held, but Until said it never did")
	}
}

func TestUntilGivesUpAtItsBound(t *testing.T) {
	looked := 0
	if Until(3*Pace, func() bool { looked++; return false }) {
		t.Fatal("a condition that never holds was reported as held")
	}
	if looked < 2 {
		t.Fatalf("looked %d times, want at least at the start and at the bound", looked)
	}
}

type fakeTB struct{ failed string }

func (*fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed = fmt.Sprintf(format, args...)
}

func TestMustNamesWhatItWaitedFor(t *testing.T) {
	var tb fakeTB
	Must(&tb, Pace, "the socket", func() bool { return false })
	if tb.failed == "" || !strings.Contains(tb.failed, "never: the socket") {
		t.Fatalf("Must failed with %q, want it to name what it waited for", tb.failed)
	}
	tb = fakeTB{}
	Must(&tb, Pace, "the socket", func() bool { return true })
	if tb.failed != "" {
		t.Fatalf("Must failed on a condition that held: %q", tb.failed)
	}
}

func TestClockPastWaitsForTheNextSecond(t *testing.T) {
	now := time.Now().Unix()
	if !ClockPast(now, time.Minute) {
		t.Fatal("the clock never passed the current second")
	}
	if time.Now().Unix() <= now {
		t.Fatalf("ClockPast(%d) returned at %d", now, time.Now().Unix())
	}
}
