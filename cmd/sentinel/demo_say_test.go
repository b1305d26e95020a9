package main

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/poll"
)

// The demo says what it makes before the sample is made, and goes on
// saying it while the making is slow: a new person's first seconds are
// never silent. The stand-in for making the sample returns only once the
// demo has said something twice (bounded: a hang fails, it is no timing).
func TestDemoSaysItMakesTheSampleWhileItIsSlow(t *testing.T) {
	var mu sync.Mutex
	var said []string
	saidN := func() int { mu.Lock(); defer mu.Unlock(); return len(said) }
	oldSay, oldCreate := demoSay, createSample
	t.Cleanup(func() { demoSay, createSample = oldSay, oldCreate })
	demoSay = func(s string) { mu.Lock(); said = append(said, s); mu.Unlock() }
	createSample = func(context.Context, string, func()) error {
		if !poll.Until(time.Minute, func() bool { return saidN() >= 2 }) {
			return errors.New("nothing said while the sample was being made")
		}
		return nil
	}
	dir := t.TempDir()
	if err := makeSample(context.Background(), dir, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(said[0], "making a sample Go project in "+dir) || !strings.Contains(said[1], "making a sample Go project (") {
		t.Fatalf("said %q", said)
	}
}
