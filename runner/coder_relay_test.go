package runner

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/sandbox"
)

// A coder that ends by itself while its output relay is slow (a loaded
// machine: here a relay held until released) still has its whole output
// in the journal, before its exit: the wait lasts while the relay is at
// work, however much longer than the idle interval that takes.
func TestSlowRelayStillJournalsTheCodersOutput(t *testing.T) {
	release := make(chan struct{})
	var once, freeOnce sync.Once
	free := func() { freeOnce.Do(func() { close(release) }) }
	t.Cleanup(free)
	waited := 0
	oldIdle, oldHandOn, oldWaited := relayIdle, relayHandOn, relayWaited
	t.Cleanup(func() { relayIdle, relayHandOn, relayWaited = oldIdle, oldHandOn, oldWaited })
	relayIdle = 10 * time.Millisecond
	relayHandOn = func() { once.Do(func() { <-release }) } // the first chunk waits
	relayWaited = func() {
		// The wait saw the relay at work three idle intervals running:
		// a fixed or idle-only bound would have given up by now.
		if waited++; waited == 3 {
			free()
		}
	}
	p := stopRepo(t)
	r, err := Start(context.Background(), Options{Project: p, Task: "say it",
		Coder:   CoderOptions{Name: "command", Command: []string{"sh", "-c", "echo THE-WHOLE-OUTPUT"}},
		Sandbox: SandboxOptions{Mode: sandbox.ModeOff},
		Landing: LandingOptions{Apply: ApplyNone}})
	if err != nil {
		t.Fatal(err)
	}
	waitResult(t, r, "a coder with a slow relay")
	evs, err := journal.ReadFile(filepath.Join(r.Dir(), "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	said, exited := -1, -1
	for i, ev := range evs {
		if said < 0 && ev.Is(journal.Coder, coderstream.Output) && strings.Contains(ev.Text, "THE-WHOLE-OUTPUT") {
			said = i
		}
		if exited < 0 && ev.Kind == KindCoderExit {
			exited = i
		}
	}
	if said < 0 || exited < 0 || said > exited {
		t.Fatalf("the coder's output is event %d and its exit event %d (want the output first; the wait saw the relay at work %d times)", said, exited, waited)
	}
}

// A relay that moves nothing (a sandbox's process holds the pty open and
// silent) ends the wait after an idle interval, long before the hang
// bound (one at work does not: TestSlowRelayStillJournalsTheCodersOutput).
func TestRelayWaitEndsWhenTheRelayIsIdle(t *testing.T) {
	t.Parallel()
	w := &relayWatch{}
	never := make(chan struct{})
	ended := make(chan bool, 1)
	go func() { ended <- w.settle(never, time.Millisecond, time.Hour) }()
	select {
	case done := <-ended:
		if done {
			t.Fatal("the wait says the relay was done")
		}
	case <-time.After(time.Minute): // a bound on a hang
		t.Fatal("the wait on an idle relay did not end")
	}
}
