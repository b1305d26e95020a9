package runner

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A stop (Ctrl-C, SIGTERM, SIGHUP, the TUI's q) cancels whatever the run is
// doing when it comes: the coder, verification, the person's review or the
// landing. Everything after the coder runs on the context stopContext
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

// stopContext is parent, cancelled too when the run is stopped.
func (r *Run) stopContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-r.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// isStopped says the run was asked to stop.
func (r *Run) isStopped() bool {
	select {
	case <-r.stopped:
		return true
	default:
		return false
	}
}

// stoppedResult is the end of a run stopped during stage.
func (r *Run) stoppedResult(stage string) Result {
	return Result{Status: StatusInterrupted, Err: &Stopped{RunID: r.id, During: stage}}
}
