package runner

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// queuePerson is the run's side of the user service's approval queue: it
// posts what needs a person and journals under which id it waits there.
// With no one at the run's terminal it also says, every seedWaitEvery with
// how long it has waited (a progress line in --plain, the spinner line in
// the TUI), that a request waits in the queue, so an unattended run is
// never silent for the queue's whole wait; with a person at the terminal
// the card itself is on screen, and nothing is said. Only what the queue
// holds is said: a run whose service is not running asks no one there and
// says nothing of a queue (said from the ask on, a slow start at load
// printed the wait line before the missing service was known).
func (r *containment) queuePerson() *queue.Person {
	ws := ""
	if r.ws != nil {
		ws = r.ws.Dir
	}
	atTerminal := r.opts.Approval.Person != nil
	return &queue.Person{Run: r.id, Project: r.opts.Project.Root, Coder: r.adapter.Name(), Workspace: ws,
		AtTerminal: atTerminal,
		Posted: func(req approvals.Request, id string) func() {
			r.emit(journal.Approval, KindQueued, fmt.Sprintf("waiting in the approval queue as %s (sentinel queue approve|deny %s, or sentinel console)", id, id),
				QueuedNote{RequestID: req.ID, QueueID: id})
			if atTerminal {
				return nil
			}
			return startSaying(time.Now(), func(d time.Duration) {
				p := CheckProgress{Command: queueWaitLine, ElapsedMS: d.Milliseconds()}
				r.emit(journal.System, KindVerifyProgress, fmt.Sprintf("%s: %s", queueWaitLine, d.Round(time.Second)), p)
			})
		}}
}

// queueWaitLine is what a run says while a request waits in the queue with
// no one at its terminal.
const queueWaitLine = "waiting for a person to answer in the approval queue (sentinel console, or sentinel queue)"
