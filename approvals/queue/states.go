package queue

import "strings"

// The final states a run reports besides landed, failed, stuck and stopped:
// the words runner.State tells a run's end with, so sentinel status and
// the console say what sentinel runs and the TUI say. A state whose work
// was kept in recovery ends in RecoverySuffix.
const (
	StateAwaitingReview = "awaiting-review" // its change waits for the person's review (sentinel review ID)
	StateNoChanges      = "no changes"      // it ended well and changed no files
	StateKept           = "kept"            // it ended well and its change was kept, not applied (--apply none): sentinel review lands it
	StateDone           = "done"            // an in-place run (exec) ended well
	StateRejected       = "rejected"        // the person rejected its change
	StateInterrupted    = "interrupted"     // it was stopped or killed
	RecoverySuffix      = " (recovery)"
)

// endStates are the words a run's end is reported with.
var endStates = map[string]bool{StateLanded: true, StateFailed: true, StateStuck: true, StateStopped: true,
	StateAwaitingReview: true, StateNoChanges: true, StateKept: true, StateDone: true, StateRejected: true, StateInterrupted: true}

// EndState reports whether s is a word a run's end is reported with
// (optionally with RecoverySuffix).
func EndState(s string) bool { return endStates[strings.TrimSuffix(s, RecoverySuffix)] }

// AwaitsPerson reports whether a run in state s waits for the person
// though no request of it is pending: its change waits for their review.
func AwaitsPerson(s string) bool { return strings.TrimSuffix(s, RecoverySuffix) == StateAwaitingReview }

// WaitsForPerson reports whether a run in state s waits for the person
// though no request of it is pending: its change awaits their review
// (AwaitsPerson: sentinel review ID), or a live run's review is open on
// its own screen (StateReviewing).
func WaitsForPerson(s string) bool { return AwaitsPerson(s) || s == StateReviewing }

// Live is a run's state word with what waits on it: a running run that
// pending requests wait on a person for is StateWaiting. sentinel status
// (the service) and sentinel runs both say it with this, so the same run
// reads the same in both.
func Live(state string, pending int) string {
	if state == StateRunning && pending > 0 {
		return StateWaiting
	}
	return state
}
