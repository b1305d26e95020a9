package queue

import (
	"context"
	"time"
)

// Settler says how a run whose process went away without a final report
// ended, from the run's own records (finishing or repairing a landing cut
// short on the way): one of the final states, or "" when its records do
// not say (it stays gone). The service sets it (cmd/sentinel wires the
// runner's SettleRun); the queue knows nothing of runs' records.
type Settler func(ctx context.Context, project, run string) string

// settleBudget bounds the settling one status.list does, well inside a
// client's deadline for it (10 s); runs left over are settled by the next.
const settleBudget = 5 * time.Second

// SetSettler makes status.list settle each gone run once with s before it
// answers, so status and the console show what the repository holds.
func (q *Queue) SetSettler(s Settler) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.settle = s
}

// SettledStatuses is Statuses after settleGone: what status.list answers.
func (q *Queue) SettledStatuses(ctx context.Context) []RunStatus {
	q.settleGone(ctx)
	return q.Statuses()
}

// settleGone settles, off the queue's lock, each reported run whose
// process is gone without a final report and that was not settled yet.
func (q *Queue) settleGone(ctx context.Context) {
	type gone struct {
		key, project, run string
		updated           time.Time
	}
	q.mu.Lock()
	settle := q.settle
	var todo []gone
	for k, e := range q.runs {
		if settle != nil && !e.settled && !final(e.st.State) && !alive(e.st.PID) {
			todo = append(todo, gone{k, e.st.Project, e.st.Run, e.st.Updated})
		}
	}
	q.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, settleBudget)
	defer cancel()
	for _, g := range todo {
		if ctx.Err() != nil {
			return
		}
		state := settle(ctx, g.project, g.run)
		if ctx.Err() != nil {
			return // cut short: the next status.list tries again
		}
		q.mu.Lock()
		if e := q.runs[g.key]; e != nil && e.st.Updated.Equal(g.updated) {
			e.settled = true
			if final(state) {
				e.st.State, e.st.Updated = state, q.now().UTC()
			}
		}
		q.mu.Unlock()
	}
}
