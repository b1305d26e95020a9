package tui

// The review screen inside the live run TUI: a ReviewRequest from the run
// opens it over the lanes (the status bar stays); the person's verdict goes
// back once on the request's Answer channel.

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/runner"
)

// reviewMsg is a review request for the person.
type reviewMsg struct{ req *runner.ReviewRequest }

// forwardReviews delivers every review request; none may be dropped.
func forwardReviews(ctx context.Context, reqs <-chan *runner.ReviewRequest, send func(tea.Msg)) {
	for {
		select {
		case r, ok := <-reqs:
			if !ok {
				return
			}
			send(reviewMsg{r})
		case <-ctx.Done():
			return
		}
	}
}

// enqueueReview opens the review screen, or queues the request behind the
// one showing. An attached person is detached and a half-typed search or
// message is dropped: the review's keys must not go anywhere else.
func (m *model) enqueueReview(req *runner.ReviewRequest) tea.Cmd {
	if req == nil {
		return nil
	}
	m.reviews = append(m.reviews, req)
	if m.review != nil {
		return nil
	}
	return m.openReview()
}

func (m *model) openReview() tea.Cmd {
	m.review = newReviewScreen(m.reviews[0], m.opts.Now())
	switch m.mode {
	case modeAttach, modeSearch, modeSteer, modeHelp:
		m.mode = modeNormal
	}
	m.flash = ""
	return armTick(m.opts.Guard)
}

// reviewRows is the height the review screen gets: the lanes' area.
func (m *model) reviewRows() int { return m.layout().area.h }

// reviewKey handles a key while the review screen is open.
func (m *model) reviewKey(k tea.KeyPressMsg) tea.Cmd {
	r := m.review
	c, why := r.key(k, m.keys, r.layout(m.reviewRows()).viewer)
	m.flash = why
	switch {
	case c.leave: // q asks to stop the run, as on the lanes
		m.mode = modeQuit
	case c.verdict != nil:
		return m.answerReview(*c.verdict)
	}
	return nil
}

// answerReview leaves the verdict for the root and opens the next review,
// if any.
func (m *model) answerReview(v ReviewVerdictMsg) tea.Cmd {
	m.reviews = m.reviews[1:]
	m.review = nil
	m.flash = v.Note
	m.decide(v)
	if len(m.reviews) > 0 {
		return m.openReview()
	}
	return nil
}

// rejectReviews rejects every open review (the run is being stopped):
// nothing lands that the person did not approve.
func (m *model) rejectReviews(reason string) {
	for _, req := range m.reviews {
		m.decide(ReviewVerdictMsg{Request: req, Answer: runner.ReviewAnswer{Reason: reason}})
	}
	m.reviews, m.review = nil, nil
}
