package runner

import (
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/supervisor"
)

// runCore is what every stage of a run reads: its options, identity,
// adapter, journal and summary, the workspace once it is open, the
// supervisor model and the stop. It is made once, before the first line of
// the journal; the stages share it and own the rest of the run's state
// themselves (coderStage, containment, endStage, gateStage, LandingStage,
// reportStage).
type runCore struct {
	opts    Options
	id      string
	dir     string
	adapter Adapter
	journal *journal.Journal
	meta    *Meta
	ws      *Workspace             // set by prepare, before any stage runs
	sup     *supervisor.Supervisor // nil: no model configured
	stop    *stopSignal
}

func (r *runCore) emit(lane journal.Lane, kind journal.Kind, text string, data any) {
	if r.journal == nil {
		return
	}
	// A failed append fails the journal for good; watchJournal turns that
	// into a fail-closed stop of the run, so the error is not lost here.
	_, _ = r.journal.Append(lane, kind, text, data)
	MarkSaid() // the views show it: a slow step's teller waits its second from here
}
