package runner

import (
	"fmt"
	"sync"
	"time"
)

// A run's view (the TUI, --plain) exists only once Start returns, and
// Start makes the workspace, the sandbox and the coder first: measured at
// load 34, 13 s with nothing on the screen. startSay says through
// Options.Preflight (cmd prints it) what the start is doing, once it has
// taken longer than seedWaitEvery and every seedWaitEvery after, until
// Start returns. A quick start says nothing.
type startSay struct {
	say   func(string)
	mu    sync.Mutex
	what  string
	begun time.Time
	stop  chan struct{}
	done  chan struct{}
}

// sayStarting starts saying; say nil says nothing.
func sayStarting(say func(string)) *startSay {
	s := &startSay{say: say, what: "opening the run", begun: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if say == nil {
		close(s.done)
		return s
	}
	go func() {
		defer close(s.done)
		sayUntil(s.stop, func(now time.Time) {
			s.mu.Lock()
			line := fmt.Sprintf("starting the run: %s (%s)", s.what, now.Sub(s.begun).Round(time.Second))
			s.mu.Unlock()
			s.say(line)
		})
	}()
	return s
}

// step names what the start does now.
func (s *startSay) step(what string) {
	s.mu.Lock()
	s.what = what
	s.mu.Unlock()
}

// end stops saying; nothing is said after it returns.
func (s *startSay) end() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}
