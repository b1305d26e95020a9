package runner

import "fmt"

// watchJournal stops the run, fail closed, when its journal cannot be
// written (a full disk): nothing may happen unrecorded. Every request still
// waiting is denied and new ones are refused (the broker closes; its Decide
// also denies while the journal is failed), the coder is stopped, the
// person is told (the views get the journal's "journal-failed" event, stderr the run's result), and the run ends failed with its work kept for recovery.
func (r *Run) watchJournal() {
	select {
	case <-r.journal.Failed():
	case <-r.done:
		return
	}
	// The views have the journal's own "journal-failed" event (the TUI or
	// the plain printer shows it); the run's result carries the cause to
	// the exit status and stderr.
	if r.guard.broker != nil {
		_ = r.guard.broker.Close() // denies what waits; finish closes it again, harmlessly
	}
	r.Stop()
}

// journalFailure is the run's outcome when its journal failed, or nil.
func journalFailure(j interface{ Err() error }) error {
	if err := j.Err(); err != nil {
		return fmt.Errorf("the run was stopped and every pending request denied because its journal cannot be written: %w", err)
	}
	return nil
}
