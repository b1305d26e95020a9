package main

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/runner"
)

// A `sentinel mcp` server acts on the person's files as an exec run does,
// but its DANGEROUS lines (files that run code later its commands left)
// went only to its standard error and its audit journal, which a client
// may hide. So each server is a run the user service knows, as an exec
// run is: registered (sentinel ps) and reported (sentinel status, the
// console), with the lines it flagged, from its start until it ends. Its
// asks in the approval queue carry the same run id and project.

// mcpRecord is one mcp server's run record in the user service.
type mcpRecord struct {
	mu      sync.Mutex
	base    queue.Report
	flagged []string
	state   string
	final   bool // the server ended: its last report is sent, then nothing
	reg     runner.Registered

	kick  chan struct{}
	done  chan struct{}
	sendf func(context.Context, queue.Report) error // queue.SendReport; a test's recorder
}

// mcpRecordWait bounds how long the end waits for its report to leave.
const mcpRecordWait = time.Second

func newMCPRecord() *mcpRecord {
	return &mcpRecord{kick: make(chan struct{}, 1), done: make(chan struct{}), sendf: queue.SendReport}
}

// start registers the server (run id, project) with reg (nil: none) and
// reports it running.
func (r *mcpRecord) start(id, project string, reg runner.Registrar) {
	now := time.Now().UTC()
	r.mu.Lock()
	r.base = queue.Report{Run: id, Project: project, Coder: "mcp", Started: now}
	r.state = queue.StateRunning
	r.mu.Unlock()
	if reg != nil {
		r.reg = reg.Register(runner.RunRegistration{ID: id, Project: project, Coder: "mcp", PID: os.Getpid(), Started: now, Mode: "mcp"})
		if r.reg != nil {
			r.reg.State(queue.StateRunning)
		}
	}
	go r.send()
	r.poke()
}

// danger adds a line the server told the person (mcpserver.Options.Danger).
func (r *mcpRecord) danger(line string) {
	r.mu.Lock()
	if len(r.flagged) < queue.MaxFlagged {
		r.flagged = append(r.flagged, line)
	}
	r.mu.Unlock()
	r.poke()
}

// end reports the server done (its flagged lines with it) and ends its
// registration; it waits for that at most mcpRecordWait.
func (r *mcpRecord) end() {
	r.mu.Lock()
	if r.final || r.base.Run == "" {
		r.mu.Unlock()
		return
	}
	r.state, r.final = queue.StateDone, true
	r.mu.Unlock()
	r.poke()
	select {
	case <-r.done:
	case <-time.After(mcpRecordWait):
	}
	if r.reg != nil {
		r.reg.End(runner.StatusDone)
	}
}

func (r *mcpRecord) poke() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// send reports the record as it is now each time it changes, the final
// report last; no service is no report, and never holds the server up.
func (r *mcpRecord) send() {
	defer close(r.done)
	for range r.kick {
		r.mu.Lock()
		rep := r.base
		rep.State, rep.Flagged = r.state, append([]string(nil), r.flagged...)
		final := r.final
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), mcpRecordWait)
		_ = r.sendf(ctx, rep)
		cancel()
		if final {
			return
		}
	}
}
