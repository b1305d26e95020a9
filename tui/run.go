package tui

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/themes"
)

// maxBatch and maxBatchBytes cap what one frame carries, so a flood of
// output still lets the screen redraw and keys through between frames.
const (
	maxBatch      = 4096
	maxBatchBytes = 1 << 20
)

// Run shows the session until the person quits (after a confirmed Stop) or,
// with opts.ExitWhenDone, until the run finishes. It owns the terminal while
// it runs; call it only when stdout is a terminal.
func Run(ctx context.Context, s Session, opts Options) error {
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	toCoder := make(chan []byte, 1024)
	r, m := newLive(s, opts, func(b []byte) {
		select {
		case toCoder <- b:
		case <-ctx.Done():
		}
	})
	defer m.close()

	dir := opts.ThemeDir
	if dir == "" {
		if d, err := themes.Dir(); err == nil {
			dir = d
		}
	}
	if dir != "" {
		pal, errs := themes.LoadDir(dir)
		r.update(themesMsg{palettes: pal, errs: errs})
	}

	p := r.program(ctx)
	var redraw atomic.Bool // one screenMsg in flight at a time
	m.term.setChanged(func() {
		if redraw.CompareAndSwap(false, true) {
			p.Send(screenMsg{})
			redraw.Store(false)
		}
	}, opts.Frame)

	go func() { // the coder's input: one writer, in order, off the UI goroutine
		for {
			select {
			case b := <-toCoder:
				_ = s.SendKeys(b)
			case <-ctx.Done():
				return
			}
		}
	}()
	events, stopEvents := s.Events()
	defer stopEvents()
	eventsDone := make(chan struct{})
	go func() {
		defer close(eventsDone)
		forwardEvents(ctx, events, p.Send, opts.Frame)
	}()
	go forwardPrompts(ctx, s.Prompts(), p.Send)
	go forwardReviews(ctx, s.Reviews(), p.Send)
	go func() {
		select {
		case <-s.Done():
		case <-ctx.Done():
			return
		}
		// let the last events reach the screen before saying the run ended
		select {
		case <-eventsDone:
		case <-time.After(2 * time.Second):
		case <-ctx.Done():
			return
		}
		p.Send(runDoneMsg{})
	}()
	if dir != "" {
		if err := themes.Watch(ctx, dir, func(pal map[string]themes.Palette, errs []error) {
			p.Send(themesMsg{palettes: pal, errs: errs})
		}); err != nil {
			r.update(errMsg{err})
		}
	}

	_, err := p.Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}

// forwardEvents coalesces events into frames: after the first event of a
// frame, everything arriving within one frame time goes in the same message.
func forwardEvents(ctx context.Context, events <-chan journal.Event, send func(tea.Msg), frame time.Duration) {
	timer := time.NewTimer(frame)
	timer.Stop()
	for {
		var batch []journal.Event
		size := 0
		select {
		case ev, ok := <-events:
			if !ok {
				return
			}
			batch = append(batch, ev)
			size += len(ev.Text)
		case <-ctx.Done():
			return
		}
		timer.Reset(frame)
		open := true
	gather:
		for len(batch) < maxBatch && size < maxBatchBytes {
			select {
			case ev, ok := <-events:
				if !ok {
					open = false
					break gather
				}
				batch = append(batch, ev)
				size += len(ev.Text)
			case <-timer.C:
				break gather
			case <-ctx.Done():
				return
			}
		}
		timer.Stop()
		send(eventsMsg(batch))
		if !open {
			return
		}
	}
}

// forwardPrompts delivers every prompt, in order; none may be dropped.
func forwardPrompts(ctx context.Context, prompts <-chan *approvals.Prompt, send func(tea.Msg)) {
	for {
		select {
		case p, ok := <-prompts:
			if !ok {
				return
			}
			send(promptMsg{p})
		case <-ctx.Done():
			return
		}
	}
}
