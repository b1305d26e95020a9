package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// queuePerson is the run's side of the user service's approval queue: it
// posts what needs a person and journals under which id it waits there.
func (r *containment) queuePerson() *queue.Person {
	ws := ""
	if r.ws != nil {
		ws = r.ws.Dir
	}
	return &queue.Person{Run: r.id, Project: r.opts.Project.Root, Coder: r.adapter.Name(), Workspace: ws,
		AtTerminal: r.opts.Approval.Person != nil,
		Posted: func(req approvals.Request, id string) {
			r.emit(journal.Approval, KindQueued, fmt.Sprintf("waiting in the approval queue as %s (sentinel queue approve|deny %s, or sentinel console)", id, id),
				QueuedNote{RequestID: req.ID, QueueID: id})
		}}
}

// queueWaitLine is what a run says while a request waits in the queue with
// no one at its terminal.
const queueWaitLine = "waiting for a person to answer in the approval queue (sentinel console, or sentinel queue)"

// sayingAway is the queue of a run with no person at its terminal: while a
// request waits there it says so every seedWaitEvery, with how long it has
// waited (a progress line in --plain, the spinner line in the TUI), so an
// unattended run is never silent for the queue's whole wait. With a person
// at the terminal the card itself is on screen, and nothing is said.
type sayingAway struct {
	inner approvals.Remote
	say   func(waited time.Duration)
}

// Ask implements approvals.Remote.
func (s sayingAway) Ask(ctx context.Context, p *approvals.Prompt) (d approvals.Decision, ok bool) {
	whileSaying(time.Now(), s.say, func() error {
		d, ok = s.inner.Ask(ctx, p)
		return nil
	})
	return d, ok
}

// awayDecider is the run's queue link: the queue, said while it waits when
// no person is at the terminal.
func (r *containment) awayDecider() approvals.Remote {
	q := r.queuePerson()
	if r.opts.Approval.Person != nil {
		return q
	}
	return sayingAway{inner: q, say: func(d time.Duration) {
		p := CheckProgress{Command: queueWaitLine, ElapsedMS: d.Milliseconds()}
		r.emit(journal.System, KindVerifyProgress, fmt.Sprintf("%s: %s", queueWaitLine, d.Round(time.Second)), p)
	}}
}
