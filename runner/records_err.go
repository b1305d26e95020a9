package runner

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// writeReport writes one of the run's report files. A report that cannot
// be written is not skipped silently: the failure is journaled and carried
// into the run's final outcome.
func (r *Run) writeReport(name, body string) {
	if err := writeAtomic(filepath.Join(r.dir, name), body); err != nil {
		err = fmt.Errorf("could not write %s: %w", name, err)
		r.emit(journal.System, KindError, err.Error(), nil)
		r.recordsMu.Lock()
		r.recordsErr = errors.Join(r.recordsErr, err)
		r.recordsMu.Unlock()
	}
}

// withRecordsErr adds to res a failure to write the run's records (meta,
// reports), so the person sees it in the outcome and on stderr.
func (r *Run) withRecordsErr(res Result, err error) Result {
	r.recordsMu.Lock()
	err = errors.Join(r.recordsErr, err)
	r.recordsMu.Unlock()
	if err == nil {
		return res
	}
	if res.Err == nil {
		res.Err = fmt.Errorf("the run's records are incomplete: %w", err)
	} else {
		res.Err = fmt.Errorf("%w; and the run's records are incomplete: %w", res.Err, err)
	}
	return res
}
