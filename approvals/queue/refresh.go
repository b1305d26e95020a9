package queue

import (
	"context"
	"fmt"
)

// Refresh reads an ended run's state again from its own records (the
// Settler), as a review that landed or rejected it asks: the state comes
// from the records, never from the caller, so any process of this user may
// ask. A run still running (its process alive, not ended) keeps its own
// reports; one unknown to the service is left alone.
func (q *Queue) Refresh(ctx context.Context, project, run string) error {
	if err := checkRun(OpRefresh, run, project); err != nil {
		return err
	}
	k := runKey(project, run)
	q.mu.Lock()
	settle, e := q.settle, q.runs[k]
	if e == nil || settle == nil {
		q.mu.Unlock()
		return nil
	}
	if !final(e.st.State) && alive(e.st.PID) {
		q.mu.Unlock()
		return fmt.Errorf("%s: run %s is still running: it reports its own state", OpRefresh, run)
	}
	was := e.st.Updated
	q.mu.Unlock()
	state := settle(ctx, project, run)
	if !final(state) {
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if e := q.runs[k]; e != nil && e.st.Updated.Equal(was) {
		e.settled = true
		e.st.State, e.st.Updated = state, q.now().UTC()
	}
	return nil
}
