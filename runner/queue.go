package runner

import (
	"fmt"

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
