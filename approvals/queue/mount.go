package queue

import (
	"context"

	"github.com/sentinelhq/sentinel/internal/servicewire"
)

// Mount registers the queue's ops (and status.report/status.list) on mux.
func (q *Queue) Mount(mux *servicewire.Mux) {
	mux.Handle(OpPost, func(ctx context.Context, c *servicewire.Call) (any, error) {
		var p Post
		if err := c.Decode(&p); err != nil {
			return nil, err
		}
		a, err := q.Post(ctx, c.Peer, p, func(p Posted) error { return c.Send(p) })
		if err != nil {
			return nil, err
		}
		return a, nil
	})
	mux.Handle(OpList, func(ctx context.Context, c *servicewire.Call) (any, error) {
		return q.List(), nil
	})
	mux.Handle(OpAnswer, func(ctx context.Context, c *servicewire.Call) (any, error) {
		var a Answer
		if err := c.Decode(&a); err != nil {
			return nil, err
		}
		return q.AnswerNoted(a)
	})
	mux.Handle(OpWithdraw, func(ctx context.Context, c *servicewire.Call) (any, error) {
		var w Withdraw
		if err := c.Decode(&w); err != nil {
			return nil, err
		}
		return struct{}{}, q.Withdraw(c.Peer, w)
	})
	mux.Handle(OpWatch, func(ctx context.Context, c *servicewire.Call) (any, error) {
		return nil, q.Watch(ctx, func(ev Event) error { return c.Send(ev) })
	})
	mux.Handle(OpReport, func(ctx context.Context, c *servicewire.Call) (any, error) {
		var r Report
		if err := c.Decode(&r); err != nil {
			return nil, err
		}
		return struct{}{}, q.Report(c.Peer, r)
	})
	mux.Handle(OpRefresh, func(ctx context.Context, c *servicewire.Call) (any, error) {
		var r Report
		if err := c.Decode(&r); err != nil {
			return nil, err
		}
		if err := checkRun(OpRefresh, r.Run, r.Project); err != nil {
			return nil, err
		}
		// Reading the records may take seconds (a large repository): the
		// review that asks has ended and does not wait for it.
		go func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleBudget)
			defer cancel()
			_ = q.Refresh(sctx, r.Project, r.Run)
		}()
		return struct{}{}, nil
	})
	mux.Handle(OpStatus, func(ctx context.Context, c *servicewire.Call) (any, error) {
		return q.SettledStatuses(ctx), nil
	})
}
