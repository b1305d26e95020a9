package queue

import (
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/sentinelhq/sentinel/internal/procgroup"
	"github.com/sentinelhq/sentinel/internal/servicewire"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

// runEntry is a run's last report and the process that sent it.
type runEntry struct {
	st      RunStatus
	settled bool // its records were read once its process was gone (settle.go)
}

// finishedKept is how long a run that ended stays in status.list.
const finishedKept = 24 * time.Hour

func runKey(project, run string) string { return project + "\x00" + run }

// Report records a run's state. The first report of a run binds it to the
// reporting process: another process cannot report for it.
func (q *Queue) Report(peer servicewire.Peer, r Report) error {
	if err := checkRun(OpReport, r.Run, r.Project); err != nil {
		return err
	}
	if r.State != StateRunning && r.State != StateReviewing && !EndState(r.State) {
		return fmt.Errorf("%s: state %q: want running, reviewing or a run's end (runner.State)", OpReport, clip(r.State, 40))
	}
	r.Coder = clip(textsafe.Line(r.Coder), 40)
	if len(r.Flagged) > MaxFlagged {
		r.Flagged = r.Flagged[:MaxFlagged]
	}
	for i, l := range r.Flagged {
		r.Flagged[i] = clip(textsafe.Line(l), 300)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	k := runKey(r.Project, r.Run)
	if e := q.runs[k]; e != nil && e.st.PID != peer.PID {
		return fmt.Errorf("%s: run %s reports from process %d, not %d", OpReport, r.Run, e.st.PID, peer.PID)
	}
	q.runs[k] = &runEntry{st: RunStatus{Report: r, PID: peer.PID, Updated: q.now().UTC()}}
	q.pruneLocked()
	return nil
}

func (q *Queue) pruneLocked() {
	for k, e := range q.runs {
		if final(e.st.State) && q.now().Sub(e.st.Updated) > finishedKept {
			delete(q.runs, k)
		}
	}
}

func final(state string) bool {
	return state == StateGone || EndState(state)
}

// Statuses is every run that reported or has a request waiting, oldest
// first, with its pending count: a running run with one is "waiting for
// you", and one whose process is gone without a final report is "gone".
func (q *Queue) Statuses() []RunStatus {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pruneLocked()
	byKey := map[string]*RunStatus{}
	for k, e := range q.runs {
		st := e.st
		byKey[k] = &st
	}
	for _, w := range q.pending {
		k := runKey(w.entry.Project, w.entry.Run)
		st := byKey[k]
		if st == nil { // a run that posts but never reported
			st = &RunStatus{Report: Report{Run: w.entry.Run, Project: w.entry.Project, Coder: w.entry.Coder,
				State: StateRunning, Started: w.entry.WaitingSince}, PID: w.pid, Updated: w.entry.WaitingSince}
			byKey[k] = st
		}
		st.Pending++
	}
	out := make([]RunStatus, 0, len(byKey))
	for _, st := range byKey {
		if !final(st.State) && !alive(st.PID) {
			st.State = StateGone
		}
		st.State = Live(st.State, st.Pending)
		out = append(out, *st)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Started.Equal(out[j].Started) {
			return out[i].Started.Before(out[j].Started)
		}
		return out[i].Run < out[j].Run
	})
	return out
}

// alive reports whether pid is a live process (same user: signal 0 works).
func alive(pid int) bool {
	return procgroup.Alive(pid)
}

// JournalPath is where a run's journal is, recomputed from its project and
// id (never a path a client sent): <project>/.sentinel/runs/<run>/events.jsonl.
func JournalPath(project, run string) (string, error) {
	if err := checkRun("journal", run, project); err != nil {
		return "", err
	}
	return filepath.Join(project, ".sentinel", "runs", run, "events.jsonl"), nil
}
