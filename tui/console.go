package tui

// This file is sentinel console: every run on the machine with its state
// (from the user service), the lanes of the selected run (its journal,
// read-only) and one queue of pending cards across runs, oldest first —
// the same card, keys and remember chooser as a run's own screen, on the
// same model. An answer goes to the service, which hands it to the run
// that asked; that run checks it and its broker applies it.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/runner"
)

type (
	consoleRunsMsg  []queue.RunStatus
	consoleQueueMsg queue.Event
	// consoleJournalMsg is what the selected run's journal gained.
	consoleJournalMsg struct {
		key    string
		events []journal.Event
	}
	consoleTickMsg struct{}
	// consoleResyncMsg starts a new watch of the queue: entries not in its
	// snapshot closed while the console was not watching.
	consoleResyncMsg struct{}
)

// consolePage is the console: a header listing the runs over the selected
// run's lanes and the cards (a model).
type consolePage struct {
	c       *chrome
	m       *model
	ctx     context.Context
	send    func(queue.Answer) error
	runs    []queue.RunStatus
	sel     string // the selected run's key (project + run)
	lastSeq int64
	pending []*approvals.Prompt // the queue, oldest first
	byID    map[string]*approvals.Prompt
	origin  map[*approvals.Prompt]string // "run R in project P", for the card and X
	runOf   map[*approvals.Prompt]string // the run's key (runKeyOf), which the console shows with its card
	carry   []tea.Msg                    // decisions of a model selectRun replaced, not yet taken
	ws      map[*approvals.Prompt]string // the run's workspace, for its paths
	gone    map[string]chan struct{}     // closed when an entry closes elsewhere
	synced  bool
	seen    map[string]bool // ids in the current watch's snapshot
	down    string          // why the service cannot be reached, if it cannot
}

// maxConsoleRuns is how many runs the header lists.
const maxConsoleRuns = 6

func newConsole(ctx context.Context, c *chrome, send func(queue.Answer) error) *consolePage {
	p := &consolePage{c: c, ctx: ctx, send: send, byID: map[string]*approvals.Prompt{}, gone: map[string]chan struct{}{},
		origin: map[*approvals.Prompt]string{}, ws: map[*approvals.Prompt]string{}, runOf: map[*approvals.Prompt]string{}}
	c.keys.Quit.SetHelp("q", "quit the console (the runs go on)")
	p.m = newModel(consoleSession{}, c, func([]byte) {})
	p.m.originOf = p.originOf
	p.m.workspaceOf = p.workspaceOf
	return p
}

func runKeyOf(r queue.RunStatus) string { return r.Project + "\x00" + r.Run }

func (p *consolePage) init() tea.Cmd { return tea.Batch(p.m.init(), p.poll()) }

// poll reads the runs and the selected run's journal once a second (off
// the UI goroutine).
func (p *consolePage) poll() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return consoleTickMsg{} })
}

func (p *consolePage) fetch() tea.Cmd {
	ctx := p.ctx
	cmds := []tea.Cmd{func() tea.Msg {
		c, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		runs, err := queue.Runs(c)
		if err != nil {
			return errMsg{fmt.Errorf("the service: %w", err)}
		}
		return consoleRunsMsg(runs)
	}}
	if r, ok := p.selected(); ok {
		key, after := p.sel, p.lastSeq
		cmds = append(cmds, func() tea.Msg {
			path, err := queue.JournalPath(r.Project, r.Run)
			if err != nil {
				return nil
			}
			evs, _ := journal.ReadFile(path) // read-only, never through a link; hostile text is drawn safe by the lanes
			var out []journal.Event
			for _, ev := range evs {
				if ev.Seq > after {
					out = append(out, ev)
				}
			}
			return consoleJournalMsg{key: key, events: out}
		})
	}
	return tea.Batch(cmds...)
}

func (p *consolePage) selected() (queue.RunStatus, bool) {
	for _, r := range p.runs {
		if runKeyOf(r) == p.sel {
			return r, true
		}
	}
	return queue.RunStatus{}, false
}

func (p *consolePage) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case consoleTickMsg:
		return tea.Batch(p.fetch(), p.poll())
	case consoleRunsMsg:
		p.runs, p.down = msg, ""
		if p.followCard() {
			return p.fetch()
		}
		if r, ok := p.selected(); ok {
			p.m.runKnown(r)
		} else if len(p.runs) > 0 && !p.m.cardVisible() {
			p.selectRun(runKeyOf(p.runs[len(p.runs)-1]))
			return p.fetch()
		}
		return nil
	case consoleJournalMsg:
		if msg.key != p.sel {
			return nil
		}
		// Two reads in flight (a tick and a review's end) may bring the
		// same events: each is drawn once.
		var fresh []journal.Event
		for _, ev := range msg.events {
			if ev.Seq > p.lastSeq {
				fresh = append(fresh, ev)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		p.lastSeq = fresh[len(fresh)-1].Seq
		p.m.ingest(eventsMsg(fresh))
		return nil
	case consoleQueueMsg:
		cmd := p.queueEvent(queue.Event(msg))
		if p.followCard() {
			return tea.Batch(cmd, p.fetch())
		}
		return cmd
	case consoleResyncMsg:
		p.synced, p.seen = false, map[string]bool{}
		return nil
	case errMsg:
		p.down = msg.err.Error()
		return nil
	case consoleReviewedMsg:
		if msg.err != nil {
			p.m.flash = "the review ended: " + msg.err.Error()
		}
		return p.fetch()
	}
	return p.m.update(msg)
}

// queueEvent keeps the cards in step with the service's queue.
func (p *consolePage) queueEvent(ev queue.Event) tea.Cmd {
	switch ev.Type {
	case queue.EventSynced:
		p.synced = true
		for id := range p.byID {
			if !p.seen[id] {
				p.queueEvent(queue.Event{Type: queue.EventClosed, ID: id, Reason: "no longer waiting"})
			}
		}
	case queue.EventOpen:
		if ev.Entry == nil {
			return nil
		}
		if p.seen != nil {
			p.seen[ev.Entry.ID] = true
		}
		if p.byID[ev.Entry.ID] != nil {
			return nil
		}
		e := *ev.Entry
		req := e.Request
		req.ID = e.ID // the card and its closing are keyed by the queue's id
		pr := approvals.NewPrompt(req, e.Verdict)
		pr.Opened = e.WaitingSince
		p.byID[e.ID] = pr
		p.origin[pr] = "run " + textsafe.Line(e.Run) + " in " + textsafe.Line(lastTwo(e.Project))
		p.ws[pr] = firstNonEmpty(e.Workspace, e.Project)
		p.runOf[pr] = e.Project + "\x00" + e.Run
		gone := make(chan struct{})
		p.gone[e.ID] = gone
		p.pending = append(p.pending, pr)
		go p.relay(e, pr, gone)
		cmd := p.m.enqueue(pr)
		return cmd // enqueue rings: a request waits
	case queue.EventClosed:
		pr := p.byID[ev.ID]
		if pr == nil {
			return nil
		}
		delete(p.byID, ev.ID)
		delete(p.origin, pr)
		delete(p.ws, pr)
		delete(p.runOf, pr)
		close(p.gone[ev.ID])
		delete(p.gone, ev.ID)
		for i, q := range p.pending {
			if q == pr {
				p.pending = append(p.pending[:i:i], p.pending[i+1:]...)
				break
			}
		}
		p.m.decidedElsewhere(ev.ID, ev.Reason)
	}
	return nil
}

// relay sends the card's answer to the service (the run that asked applies
// it), unless the entry closes first.
func (p *consolePage) relay(e queue.Entry, pr *approvals.Prompt, gone <-chan struct{}) {
	select {
	case a := <-pr.Replies():
		// Only an approval approves: a skip, or a kind this does not
		// know, is a deny.
		qa := queue.Answer{ID: e.ID, Decision: queue.Deny, Message: a.Message, Via: "console"}
		switch a.Kind {
		case approvals.Skip:
			qa.Message = approvals.SkipMessage
		case approvals.ApproveOnce:
			qa.Decision, qa.Message = queue.Approve, ""
		case approvals.ApproveRemember:
			qa.Decision, qa.Message = queue.Approve, ""
			if g := a.Grant; g != nil {
				m := g.Match
				qa.Remember, qa.Match, qa.Also, qa.ExpiresSec = g.Scope, &m, g.Also, int64(g.Expires/time.Second)
			} else {
				qa.Remember = approvals.ScopeProject
			}
		}
		_ = p.send(qa) // an answer to an entry that closed meanwhile is refused by the service; the closing says how
	case <-gone:
	case <-p.ctx.Done():
	}
}

// selectRun shows run key's lanes: a new model for its journal, which
// keeps what the person is doing with the cards (keepCards).
func (p *consolePage) selectRun(key string) {
	if key == p.sel {
		return
	}
	p.sel, p.lastSeq = key, 0
	r, _ := p.selected()
	old := p.m
	p.carry = append(p.carry, old.take()...) // its decisions still go out
	p.m = newModel(consoleSession{run: r}, p.c, func([]byte) {})
	p.m.originOf = p.originOf
	p.m.workspaceOf = p.workspaceOf
	p.m.keepCards(old)
}

func (p *consolePage) key(k tea.KeyPressMsg) tea.Cmd {
	if p.m.mode == modeNormal {
		if cmd, why, ok := p.table().dispatch(p, k); ok {
			p.m.flash = why
			return cmd
		}
	}
	// The card is judged in the rows render gives it below the run list:
	// whether it was seen whole (approve, "always") is a question about
	// what was drawn, not about the whole screen.
	n := headerRows(p.header())
	p.c.height -= n
	defer func() { p.c.height += n }()
	return p.m.key(k)
}

func (p *consolePage) step(d int) {
	runs := p.shownRuns()
	if len(runs) == 0 {
		return
	}
	i := 0
	for j, r := range runs {
		if runKeyOf(r) == p.sel {
			i = j
		}
	}
	i = (i + d + len(runs)) % len(runs)
	p.selectRun(runKeyOf(runs[i]))
}

// recentRun is how long an ended run stays in the console's list.
const recentRun = 15 * time.Minute

// shownRuns are the runs the header lists: the live ones, those with
// requests waiting, the selected one and those that ended lately; the
// history is counted, not listed.
func (p *consolePage) shownRuns() []queue.RunStatus {
	now := p.c.opts.Now()
	var out []queue.RunStatus
	for _, r := range p.runs {
		switch {
		case r.State == queue.StateRunning, r.State == queue.StateWaiting, r.State == queue.StateReviewing, r.State == queue.StateStuck,
			queue.AwaitsPerson(r.State), r.Pending > 0, runKeyOf(r) == p.sel, !r.Updated.IsZero() && now.Sub(r.Updated) < recentRun:
			out = append(out, r)
		}
	}
	return out
}

func (p *consolePage) attached() bool                { return false }
func (p *consolePage) guardSince() (time.Time, bool) { return p.m.guardSince() }

func (p *consolePage) settle() tea.Cmd { return nil }
func (p *consolePage) title() string {
	return waitingTitle(len(p.m.queue), "sentinel console", p.m.opts.Signal)
}
func (p *consolePage) cursor() *tea.Cursor { return nil }

// render is the runs over the selected run's lanes and the card.
func (p *consolePage) render() string {
	head := p.header()
	n := headerRows(head)
	p.c.height -= n
	body := p.m.render()
	p.c.height += n
	if n == 0 {
		return body
	}
	return head + "\n" + body
}

// headerRows is how many rows the header head takes (none when it is
// empty); render and key both take them from the model's height.
func headerRows(head string) int {
	if head == "" {
		return 0
	}
	return strings.Count(head, "\n") + 1
}

func (p *consolePage) header() string {
	w := max(p.c.width, 20)
	waiting := len(p.pending)
	for _, r := range p.runs {
		if queue.WaitsForPerson(r.State) { // its change waits for the person's review
			waiting++
		}
	}
	// the keys come from the console's table; R names the run it opens
	lines := []string{fmt.Sprintf("sentinel console · %d run(s) · %d waiting for you · %s", len(p.runs), waiting, p.legend())}
	if p.down != "" {
		lines = append(lines, "! "+textsafe.Line(p.down))
	}
	if p.cardCrowded() {
		// A card waits on a short screen: its rows are worth more than
		// the list and the console's title (the card names its run and
		// project, and says how many wait); only a service that is down
		// keeps its line. At 60×15 the title row cut a run-later card's
		// "always" sentence and refused its approval.
		if p.down == "" {
			return ""
		}
		return ansi.Truncate("! "+textsafe.Line(p.down), w, "…")
	}
	shown := fitRuns(p.shownRuns(), p.consoleRunRows(), p.sel)
	if hidden := len(p.runs) - len(shown); hidden > 0 {
		lines = append(lines, fmt.Sprintf("  + %d earlier or ended run(s) not listed (sentinel status lists them)", hidden))
	}
	for _, r := range shown {
		lines = append(lines, consoleRunLine(r, runKeyOf(r) == p.sel, w))
	}
	if len(p.runs) == 0 {
		lines = append(lines, "  no runs have reported to the service yet")
	}
	for i := range lines {
		lines[i] = ansi.Truncate(lines[i], w, "…")
	}
	return strings.Join(lines, "\n")
}

// cardCrowded reports whether a card waits on a screen too short for it
// and the run list both (under 24 rows).
func (p *consolePage) cardCrowded() bool {
	return p.m != nil && len(p.m.queue) > 0 && p.c.height > 0 && p.c.height < 24
}

func lastTwo(p string) string {
	parts := strings.Split(strings.TrimRight(p, "/"), "/")
	if len(parts) > 2 {
		return strings.Join(parts[len(parts)-2:], "/")
	}
	return p
}

// consoleSession is the selected run as the model sees it: its lanes come
// from its journal (fed by the console), its cards from the queue. The
// console cannot steer, attach to or stop another terminal's run.
type consoleSession struct{ run queue.RunStatus }

var errNotHere = errors.New("the console answers cards; steer, attach to or stop a run at its own terminal")

func (s consoleSession) Info() SessionInfo {
	return runner.Info{RunID: s.run.Run, Coder: s.run.Coder, Task: "(console) " + s.run.Project, Started: s.run.Started, PerCommandApproval: true}
}
func (consoleSession) Events() (<-chan journal.Event, func()) { return nil, func() {} }
func (consoleSession) Prompts() <-chan *approvals.Prompt      { return nil }
func (consoleSession) Reviews() <-chan *runner.ReviewRequest  { return nil }
func (s consoleSession) PastRequests() []approvals.Request {
	if s.run.Project == "" {
		return nil
	}
	return runner.PastRequests(&runner.Project{Root: s.run.Project})
}
func (consoleSession) Steer(string) error    { return errNotHere }
func (consoleSession) ResizeCoder(int, int)  {}
func (consoleSession) SendKeys([]byte) error { return errNotHere }
func (consoleSession) Stop()                 {}
func (consoleSession) Finish()               {}
func (consoleSession) Done() <-chan struct{} { return nil }

// RunConsole shows the console until the person quits. It owns the
// terminal; the caller checks that the service runs.
func RunConsole(ctx context.Context, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := newChrome(opts)
	page := newConsole(ctx, c, func(a queue.Answer) error {
		sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		return queue.Send(sctx, a)
	})
	r := newRoot(c, page)
	prog := r.program(ctx)
	go func() { // the queue, as it changes; again after the service comes back
		for ctx.Err() == nil {
			prog.Send(consoleResyncMsg{})
			err := queue.WatchQueue(ctx, func(ev queue.Event) { prog.Send(consoleQueueMsg(ev)) })
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				prog.Send(errMsg{err})
			}
			select {
			case <-time.After(2 * time.Second):
			case <-ctx.Done():
			}
		}
	}()
	_, err := prog.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// originOf names the run and project a card came from.
func (p *consolePage) originOf(pr *approvals.Prompt) string { return p.origin[pr] }

// workspaceOf is the workspace of the run a card came from.
func (p *consolePage) workspaceOf(pr *approvals.Prompt) string { return p.ws[pr] }
