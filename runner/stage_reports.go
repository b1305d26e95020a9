package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// reportStage keeps a run's records: PROGRESS.md and DECISIONS.md live while
// the run goes on, the gate's reports (HANDOFF.md, STUCK.md) when they are
// written, and the final meta.json and reports once the journal closes. A
// record that cannot be written is not skipped silently: the failure is
// journaled and carried into the run's final outcome.
//
// It only reads the journal and writes the run directory: it never decides
// anything about the run, and a report never feeds back into one.
type reportStage struct {
	id, dir string
	emit    func(lane journal.Lane, kind journal.Kind, text string, data any)

	mu   sync.Mutex
	err  error         // what could not be written of the run's reports
	done chan struct{} // closed when the live reports stop (nil: never started)
}

// write writes one of the run's report files.
func (s *reportStage) write(name, body string) {
	if err := writeAtomic(filepath.Join(s.dir, name), body); err != nil {
		err = fmt.Errorf("could not write %s: %w", name, err)
		s.emit(journal.System, KindError, err.Error(), nil)
		s.mu.Lock()
		s.err = errors.Join(s.err, err)
		s.mu.Unlock()
	}
}

// withErr adds to res a failure to write the run's records (meta,
// reports), so the person sees it in the outcome and on stderr.
func (s *reportStage) withErr(res Result, err error) Result {
	s.mu.Lock()
	err = errors.Join(s.err, err)
	s.mu.Unlock()
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

// keepLive rewrites PROGRESS.md and DECISIONS.md from j's events, at most a
// few times a second and only when they changed, until the journal closes;
// it keeps what those reports show (liveReport), not the run's events. start is the summary as it
// was when the coder started: the live reports read it while the run's end
// rewrites its own.
func (s *reportStage) keepLive(j *journal.Journal, start Meta) {
	s.done = make(chan struct{})
	events, cancel := j.SubscribeWhere(256, true, notCoderOutput)
	go func() {
		defer close(s.done)
		defer cancel()
		var live liveReport // what the reports show, not every event
		tick := time.NewTicker(500 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case ev, ok := <-events:
				if !ok {
					return
				}
				live.observe(ev)
			case <-tick.C:
				if live.dirty {
					writeLiveReports(s.dir, start, live.events())
					live.dirty = false
				}
			}
		}
	}()
}

func writeLiveReports(dir string, m Meta, evs []journal.Event) {
	// Live copies, rewritten every half second: a failure here is retried,
	// and the final write reports it if it persists.
	_ = writeAtomic(filepath.Join(dir, "PROGRESS.md"), renderProgress(&m, evs, time.Now()))
	_ = writeAtomic(filepath.Join(dir, "DECISIONS.md"), renderDecisions(&m, evs))
}

// final writes the finished run's records once its journal has closed
// (closeErr is how that went): the decisions counted from the journal,
// meta.json and the reports. It returns res with any record that could not
// be written.
func (s *reportStage) final(closeErr error, m *Meta, res Result) Result {
	if s.done != nil {
		<-s.done
	}
	evs, _ := readRecord(s.dir)
	m.Decisions = CountDecisions(evs)
	err := errors.Join(closeErr, writeMeta(s.dir, m), writeReports(s.dir, m, evs))
	if err != nil {
		appendEvent(s.dir, s.id, journal.System, KindError, "could not write the run's records: "+err.Error(), nil)
	}
	return s.withErr(res, err)
}
