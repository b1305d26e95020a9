package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// statusReports tells the user service (when it runs) the run's state as
// it changes, for sentinel status and sentinel console. No service is no
// report, at once; a report never holds the run up for long.
type statusReports struct {
	mu    sync.Mutex
	base  queue.Report
	last  string
	ended bool // the final state was sent: a late review event does not undo it
	stop  func()
	sendf func(context.Context, queue.Report) error // queue.SendReport; a test's recorder
}

func reportStatus(r *runner.Run, project string) *statusReports {
	info := r.Info()
	s := &statusReports{base: queue.Report{Run: r.ID(), Project: project, Coder: info.Coder, Started: info.Started},
		sendf: queue.SendReport}
	s.send(queue.StateRunning)
	events, cancel := r.Events()
	s.stop = cancel
	dir := r.Dir()
	go func() {
		for ev := range events {
			s.event(ev, dir)
		}
	}()
	return s
}

// event reports what ev changes in the run's state. The run's end is its
// final state at once: the TUI stays open after it until the person quits,
// and meanwhile sentinel status and the console say what the TUI says
// ("no changes", not "running": #37 point 10).
func (s *statusReports) event(ev journal.Event, dir string) {
	switch ev.Kind {
	case runner.KindReview:
		s.send(queue.StateReviewing)
	case runner.KindReviewApproved, runner.KindReviewRejected:
		s.send(queue.StateRunning)
	case runner.KindRunEnd:
		if end, ok := runner.AsRunEnd(ev); ok && end.State != "" {
			s.sendFinal(finalState(end.State, end.Status, dir))
		}
	}
}

// final reports how the run ended.
func (s *statusReports) final(r *runner.Run, res runner.Result) {
	s.stop()
	s.sendFinal(finalState(res.StateOf(), res.Status, r.Dir()))
}

// sendFinal sends the run's final state; nothing is sent after it.
func (s *statusReports) sendFinal(state string) { s.report(state, true) }

// finalState is the state reported for a run that ended with state word
// (runner.State) and status; dir is its run directory. A failed run that
// left STUCK.md is "stuck", so the console keeps it in sight.
func finalState(word string, status runner.Status, dir string) string {
	if status == runner.StatusFailed && strings.HasPrefix(word, string(status)) { // a run from before Meta.Stuck
		if _, err := os.Stat(filepath.Join(dir, "STUCK.md")); err == nil {
			return queue.StateStuck + strings.TrimPrefix(word, string(status))
		}
	}
	return word
}

func (s *statusReports) send(state string) { s.report(state, false) }

func (s *statusReports) report(state string, final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = final
	if state == s.last {
		return
	}
	s.last = state
	rep := s.base
	rep.State = state
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = s.sendf(ctx, rep)
}
