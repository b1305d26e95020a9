package queue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// Queue is the service's side: the pending requests of every run, the
// recently closed ones (so a late answer hears what became of its
// request), the runs' reported states and the watchers.
type Queue struct {
	mu      sync.Mutex
	pending map[string]*waiting
	closed  map[string]string // id → how it closed
	closedN []string          // closed ids, oldest first (bounded)
	runs    map[string]*runEntry
	subs    map[chan Event]struct{}
	nudge   func(Entry)
	now     func() time.Time
	settle  Settler // may be nil (settle.go)
}

type waiting struct {
	entry     Entry
	pid       int
	answer    chan Answer   // the first answer (buffered)
	withdrawn chan struct{} // closed when the posting run takes it back
}

// maxClosed bounds how many closed ids the queue remembers.
const maxClosed = 512

// New returns an empty queue; nudge (may be nil) is called, off the
// queue's lock, when a request starts waiting with nobody at the run's
// terminal.
func New(nudge func(Entry)) *Queue {
	return &Queue{pending: map[string]*waiting{}, closed: map[string]string{}, runs: map[string]*runEntry{},
		subs: map[chan Event]struct{}{}, nudge: nudge, now: time.Now}
}

// Post puts the request in the queue, tells the poster its id (posted)
// and waits for the first answer. It ends with an error when the poster
// withdraws it or goes away (ctx), closing the entry.
func (q *Queue) Post(ctx context.Context, peer servicewire.Peer, p Post, posted func(Posted) error) (Answer, error) {
	if err := checkPost(p); err != nil {
		return Answer{}, err
	}
	w := &waiting{pid: peer.PID, answer: make(chan Answer, 1), withdrawn: make(chan struct{})}
	w.entry = Entry{ID: newID(), Run: p.Run, Project: p.Project, Coder: clip(textsafe.Line(p.Coder), 40), Workspace: p.Workspace,
		Kind: p.Request.Kind, Summary: clip(Redact(textsafe.Line(p.Request.Summary())), 300),
		Policy:       Why{Rule: clip(textsafe.Line(p.Verdict.Rule), 80), Reason: clip(textsafe.Line(p.Verdict.Reason), 300)},
		WaitingSince: q.now().UTC(), AtTerminal: p.AtTerminal, Request: p.Request, Verdict: p.Verdict}
	q.mu.Lock()
	q.pending[w.entry.ID] = w
	e := w.entry
	q.publish(Event{Type: EventOpen, Entry: &e})
	q.mu.Unlock()
	if !p.AtTerminal && q.nudge != nil {
		go q.nudge(e)
	}
	if err := posted(Posted{ID: e.ID}); err != nil {
		q.close(e.ID, approvals.WithdrawnReason)
		return Answer{}, err
	}
	select {
	case a := <-w.answer:
		return a, nil
	case <-w.withdrawn:
		return Answer{}, errors.New("withdrawn by the run")
	case <-ctx.Done():
		q.close(e.ID, approvals.WithdrawnReason)
		return Answer{}, ctx.Err()
	}
}

func checkPost(p Post) error {
	if err := checkRun(OpPost, p.Run, p.Project); err != nil {
		return err
	}
	if p.Request.Kind == "" {
		return fmt.Errorf("%s: the request has no kind", OpPost)
	}
	if ws := p.Workspace; ws != "" && (!filepath.IsAbs(ws) || filepath.Clean(ws) != ws || len(ws) > 4096) {
		return fmt.Errorf("%s: the workspace %q is not a clean absolute path", OpPost, clip(ws, 200))
	}
	return nil
}

// checkRun holds a run's id and project to what a run sends: an id that
// is one path element, a clean absolute project path.
func checkRun(op, run, project string) error {
	switch {
	case run == "" || len(run) > 100 || strings.ContainsAny(run, "/\\\x00") || run == "." || run == "..":
		return fmt.Errorf("%s: the run id %q is not one (want the run's id)", op, clip(run, 100))
	case !filepath.IsAbs(project) || filepath.Clean(project) != project:
		return fmt.Errorf("%s: the project %q is not a clean absolute path", op, clip(project, 200))
	}
	return nil
}

// Answer delivers a to the run that posted a.ID: the first answer wins,
// and an answer to an id that is not waiting is an error saying why.
func (q *Queue) Answer(a Answer) error {
	_, err := q.AnswerNoted(a)
	return err
}

// AnswerNoted is Answer, saying what it did beyond the decision: a
// remembered scope held to what the request may be remembered in
// (approvals.RememberLimit: a person-only request, for this run at most).
func (q *Queue) AnswerNoted(a Answer) (Answered, error) {
	var out Answered
	switch a.Decision {
	case Approve, Deny:
	default:
		return out, fmt.Errorf("%s: decision %q: want approve or deny", OpAnswer, a.Decision)
	}
	switch a.Remember {
	case "", approvals.ScopeRun, approvals.ScopeProject, approvals.ScopeUser:
	default:
		return out, fmt.Errorf("%s: remember %q: want run, project or user", OpAnswer, a.Remember)
	}
	if a.Remember != "" && a.Decision != Approve {
		return out, fmt.Errorf("%s: only an approval can be remembered", OpAnswer)
	}
	switch a.Via {
	case "console", "page", "push": // the web page and a push's action (runner/service/web)
	default:
		a.Via = "queue"
	}
	a.Message = clip(a.Message, 2000)
	q.mu.Lock()
	w := q.pending[a.ID]
	if w == nil {
		why, was := q.closed[a.ID]
		q.mu.Unlock()
		if was {
			return out, fmt.Errorf("request %s is no longer waiting: %s", a.ID, why)
		}
		return out, fmt.Errorf("no request %q is waiting (sentinel queue lists them)", clip(a.ID, 40))
	}
	if err := checkSeen(w.entry, a); err != nil {
		q.mu.Unlock()
		return out, err
	}
	if a.Remember != "" {
		g, note := approvals.LimitGrant(approvals.GrantSpec{Scope: a.Remember}, w.entry.Verdict)
		a.Remember, out.Note = g.Scope, note
	}
	w.answer <- a
	q.closeLocked(a.ID, "answered in the "+a.Via)
	q.mu.Unlock()
	return out, nil
}

// Withdraw closes a request for the process that posted it, and only for it.
func (q *Queue) Withdraw(peer servicewire.Peer, wd Withdraw) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	w := q.pending[wd.ID]
	if w == nil {
		return fmt.Errorf("no request %q is waiting", clip(wd.ID, 40))
	}
	if w.pid != peer.PID {
		return fmt.Errorf("request %s was not posted by this process: only its run can withdraw it", wd.ID)
	}
	reason := clip(textsafe.Line(wd.Reason), 200)
	if reason == "" {
		reason = "withdrawn by the run"
	}
	close(w.withdrawn)
	q.closeLocked(wd.ID, reason)
	return nil
}

// List is the pending requests, oldest first.
func (q *Queue) List() []Entry {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.listLocked()
}

func (q *Queue) listLocked() []Entry {
	out := make([]Entry, 0, len(q.pending))
	for _, w := range q.pending {
		out = append(out, w.entry)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].WaitingSince.Equal(out[j].WaitingSince) {
			return out[i].WaitingSince.Before(out[j].WaitingSince)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Watch sends the pending entries, a synced event, then every change until
// ctx ends. A watcher that falls far behind is dropped (its stream ends
// with an error; it can watch again).
func (q *Queue) Watch(ctx context.Context, send func(Event) error) error {
	ch := make(chan Event, 256)
	q.mu.Lock()
	snap := q.listLocked()
	q.subs[ch] = struct{}{}
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.subs, ch)
		q.mu.Unlock()
	}()
	for i := range snap {
		if err := send(Event{Type: EventOpen, Entry: &snap[i]}); err != nil {
			return err
		}
	}
	if err := send(Event{Type: EventSynced}); err != nil {
		return err
	}
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return errors.New("the watcher fell behind: watch again")
			}
			if err := send(ev); err != nil {
				return err
			}
		case <-ctx.Done():
			return nil
		}
	}
}

// publish sends ev to every watcher; call with q.mu held.
func (q *Queue) publish(ev Event) {
	for ch := range q.subs {
		select {
		case ch <- ev:
		default:
			close(ch)
			delete(q.subs, ch)
		}
	}
}

func (q *Queue) close(id, reason string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending[id] != nil {
		q.closeLocked(id, reason)
	}
}

func (q *Queue) closeLocked(id, reason string) {
	delete(q.pending, id)
	q.closed[id] = reason
	q.closedN = append(q.closedN, id)
	if len(q.closedN) > maxClosed {
		delete(q.closed, q.closedN[0])
		q.closedN = q.closedN[1:]
	}
	q.publish(Event{Type: EventClosed, ID: id, Reason: reason})
}

func newID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// clip is s cut to at most n runes.
func clip(s string, n int) string { return textsafe.Clip(s, n) }
