package runner

import (
	"fmt"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// endCheckpoint ends an in-place run's checkpoint c (nil: none was taken)
// and adds what it saw to ch, git's report (err: git could not tell). It
// is also unreported: why this report is not the whole of what the run
// changed, or the run cannot be undone as recorded. The run fails with it
// (failUnreported): a coder that fills the file system the state dir is
// on must not end "done" with an ignored file it trojaned left out.
// stopped ends the record in progress (stopSignal.again).
func endCheckpoint(c *inPlaceCheckpoint, id string, stopped <-chan struct{}, ch InPlaceChange, err error, emit func(journal.Lane, journal.Kind, string, any)) (InPlaceChange, error, error) {
	var unreported error
	if c != nil {
		changes, after, cerr := c.end(stopped, emit)
		if cerr != nil {
			unreported = endRecordFailure(id, after != nil, cerr)
			emit(journal.System, KindError, "in place: "+unreported.Error(), nil)
		}
		if after != nil {
			if err != nil { // git could not tell; the checkpoint can
				emit(journal.System, KindNotice, "in place: git could not tell what changed ("+err.Error()+"); the checkpoint's comparison follows", nil)
				ch, err = InPlaceChange{}, nil
			}
			ch = c.report(ch, changes, after)
		}
	}
	if err != nil && unreported == nil {
		unreported = fmt.Errorf("could not tell what changed in place: %w", err)
	}
	return ch, err, unreported
}

// failUnreported is res, failed with unreported when it is set and the
// run had otherwise succeeded.
func failUnreported(res Result, unreported error) Result {
	if unreported != nil && res.Status == StatusDone {
		return Result{Status: StatusFailed, Err: unreported}
	}
	return res
}

// endRecordFailure is why the end of an in-place run's checkpoint failed
// (err): with compared, the place was compared but the record of it after
// the run could not be saved; else it could not be compared at all, and
// the report has only what git sees. Either way, what undo needs is said.
func endRecordFailure(id string, compared bool, err error) error {
	if compared {
		return fmt.Errorf("the record of the place after the run could not be saved (%w): this report is complete, but 'sentinel undo %s' cannot tell your later changes from the run's and needs --force", err, id)
	}
	return fmt.Errorf("could not compare the place with its checkpoint (%w): ignored files, and any of them that run code later, are not in this report; 'sentinel undo --force %s' puts back everything that differs from the checkpoint", err, id)
}
