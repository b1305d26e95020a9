package runner

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/poll"
)

// blockedQueue answers only once released.
type blockedQueue struct{ release chan struct{} }

func (b blockedQueue) Ask(ctx context.Context, p *approvals.Prompt) (approvals.Decision, bool) {
	<-b.release
	return approvals.Decision{Outcome: approvals.OutcomeAllow, By: "person"}, true
}

// A request waiting in the queue with no one at the run's terminal is said
// while it waits (the newcomer's unattended demo sat silent for the
// queue's whole wait), and the queue's answer is passed on unchanged.
func TestAQueueWaitIsSaidWhileItLasts(t *testing.T) {
	t.Parallel()
	q := blockedQueue{release: make(chan struct{})}
	var said atomic.Int32
	s := sayingAway{inner: q, say: func(time.Duration) { said.Add(1) }}
	type result struct {
		d  approvals.Decision
		ok bool
	}
	got := make(chan result, 1)
	go func() {
		d, ok := s.Ask(context.Background(), &approvals.Prompt{})
		got <- result{d, ok}
	}()
	if !poll.Until(2*time.Minute, func() bool { return said.Load() > 0 }) {
		t.Fatal("nothing was said while the request waited in the queue")
	}
	close(q.release)
	r := <-got
	if !r.ok || r.d.Outcome != approvals.OutcomeAllow {
		t.Errorf("the queue's answer was not passed on: %+v %v", r.d, r.ok)
	}
}
