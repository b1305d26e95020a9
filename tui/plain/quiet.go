package plain

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/coderstream"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner"
)

// QuietAfter is how long a coder may show nothing and ask for nothing under
// --plain before the run says so. Working coders print (a spinner, text, a
// tool call) far more often; one waiting for a person does not.
const QuietAfter = 60 * time.Second

// Quiet tells a coder that went quiet while it runs: no output, no tool
// call, no request for Sentinel's approval for After — as Claude Code is
// when its model refused the request and it waits for input that --plain
// has nobody to give (seen: 28 minutes, silent, until stopped). A turn that
// ended on the model's error (Claude Code's StopFailure) is told at once;
// the coder's "waiting for your input" notices are no sign of life. A stretch
// is told at After, then at each doubling, so a long one is told a few
// times, not every second. Waiting for the person's own answer to a
// request is not the coder's silence.
type Quiet struct {
	After time.Duration

	coding  bool      // between coder-start and the coder's end
	last    time.Time // the coder's last sign of life
	next    time.Duration
	pending int    // approval requests not yet decided
	failed  string // the turn's failure, not yet told
}

// See takes one event of the run at now.
func (q *Quiet) See(ev journal.Event, now time.Time) {
	switch {
	case ev.Is(journal.System, runner.KindCoderStart):
		q.coding, q.pending = true, 0
		q.alive(now)
	case ev.Is(journal.System, runner.KindCoderExit), ev.Is(journal.System, runner.KindCoderDone),
		ev.Is(journal.System, runner.KindCoderFailed), ev.Is(journal.System, runner.KindCoderEnded),
		ev.Is(journal.System, runner.KindRunEnd), ev.Is(journal.System, runner.KindVerifyStart),
		ev.Is(journal.System, runner.KindPatch):
		q.coding = false
	case ev.Is(journal.Coder, coderstream.CoderStopFailure):
		// The turn ended on the model's error (model_not_found): the
		// coder now waits for input; told at once, not after After.
		q.failed = ev.Text
	case ev.Is(journal.Coder, coderstream.Notification), ev.Is(journal.Coder, coderstream.CoderStop):
		// "Claude is waiting for your input": no sign of life.
	case ev.Lane == journal.Coder || ev.Lane == journal.Tool:
		q.alive(now)
	case ev.Lane == journal.Approval:
		if _, ok := approvals.AsRequest(ev); ok {
			q.pending++
		} else if _, ok := approvals.AsDecision(ev); ok && q.pending > 0 {
			q.pending--
		}
		q.alive(now)
	}
}

func (q *Quiet) alive(now time.Time) {
	q.last, q.next = now, q.After
}

// Due is the line to print at now when the coder has been quiet past the
// next mark, else "".
func (q *Quiet) Due(now time.Time) string {
	if !q.coding || q.pending > 0 || q.After <= 0 {
		return ""
	}
	if f := q.failed; f != "" {
		q.failed = ""
		return "the coder's turn ended on an error (" + f + ") and it waits for input, which --plain has no way to give it: stop the run with Ctrl-C (its work is kept), fix what the error names, and run again"
	}
	quiet := now.Sub(q.last)
	if quiet < q.next {
		return ""
	}
	q.next *= 2
	return fmt.Sprintf("the coder has shown nothing and asked for nothing for %s: it may be waiting for input, which --plain has no way to give it (see its last lines above; a model that refused the request does this); stop the run with Ctrl-C (its work is kept), or run it without --plain",
		quiet.Truncate(time.Second))
}

// FollowQuiet prints events until the channel closes, as Follow does, and
// every tick asks q whether the coder has gone quiet, printing its line as a
// notice on the system lane.
func (p *Printer) FollowQuiet(events <-chan journal.Event, q *Quiet, tick <-chan time.Time) {
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				p.Flush()
				return
			}
			q.See(ev, time.Now())
			p.Print(ev)
		case now := <-tick:
			if line := q.Due(now); line != "" {
				p.Print(journal.Event{Time: now, Lane: journal.System, Kind: runner.KindNotice, Text: line})
				p.Flush()
			}
		}
	}
}
