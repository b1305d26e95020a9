package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A stop (Ctrl-C, SIGTERM, SIGHUP, the TUI's q) cancels whatever the run is
// doing when it comes: the coder, verification, the person's review or the
// landing. Everything after the coder runs on the context stopSignal.context
// returns, which a stop cancels; a landing that has begun is finished or
// rolled back, never left half done (land.go, apply_worktree.go), and the
// run's end says which.

// Stopped is how a stopped run ends: the stage it was in, and whether a
// landing under way was rolled back or had already finished.
type Stopped struct {
	RunID  string
	During string // "the coder's work", "the completion review", "verification", "review", "landing"
	// Landed: the landing had finished when the stop came; the change is
	// in the project and the run counts as landed.
	Landed bool
}

func (s *Stopped) Error() string {
	if s.Landed {
		return fmt.Sprintf("stopped during %s: the landing had already finished, so the change is in place", s.During)
	}
	what := "work kept in recovery"
	if s.During == stageLanding {
		what = "the landing was rolled back, nothing landed; work kept in recovery"
	}
	return fmt.Sprintf("stopped during %s: %s — sentinel review %s", s.During, what, s.RunID)
}

// The stages a stop can interrupt, as its line names them.
const (
	stageCoder            = "the coder's work"
	stageCompletionReview = "the completion review" // the supervisor's, with its verification and probes
	stageVerification     = "verification"
	stageReview           = "review"
	stageLanding          = "landing"
)

// stopGrace is how long a stopped coder's process group has between
// SIGTERM and SIGKILL, and stopDrain how long its last output then has to
// reach the journal: together well inside the two seconds a stop may take.
const (
	stopGrace = 800 * time.Millisecond
	stopDrain = 300 * time.Millisecond
	// stopDiff bounds computing the patch after a stop (finish.go).
	stopDiff = 700 * time.Millisecond
)

// errLandingRolledBack is a landing that a stop cut short before it took
// effect: nothing of it is in the project.
var errLandingRolledBack = errors.New("stopped: the landing was rolled back")

// stopSignal is the run's stop: raised once (Run.Stop, a bypassed gate, a
// failed journal), read by every stage that a stop cuts short.
type stopSignal struct {
	once sync.Once
	ch   chan struct{}

	mu   sync.Mutex
	next []chan struct{} // again's: closed at the next raise
}

func newStopSignal() *stopSignal { return &stopSignal{ch: make(chan struct{})} }

// raise stops the run; it is safe to call more than once: each call also
// ends what again handed out before it.
func (s *stopSignal) raise() {
	s.once.Do(func() { close(s.ch) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.next {
		close(c)
	}
	s.next = nil
}

// again is closed at the next raise, whether or not the run was stopped
// before: what must still run after a stop (the end record, which tells
// what the coder changed) stops at a stop asked for while it runs (a
// second Ctrl-C, or the SIGTERM that ended a 47-minute record only by
// SIGKILL: 31-ipatk16).
func (s *stopSignal) again() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := make(chan struct{})
	s.next = append(s.next, c)
	return c
}

// raised says the run was asked to stop.
func (s *stopSignal) raised() bool {
	select {
	case <-s.ch:
		return true
	default:
		return false
	}
}

// context is parent, cancelled too when the run is stopped.
func (s *stopSignal) context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-s.ch:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// stoppedResult is the end of run id stopped during stage.
func stoppedResult(id, stage string) Result {
	return Result{Status: StatusInterrupted, Err: &Stopped{RunID: id, During: stage}}
}
