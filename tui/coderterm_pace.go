package tui

import "time"

// pacer holds the coder pane's redraws to at most one a frame: a change
// within a frame of the last redraw is drawn when that frame ends, so a
// flood of output neither redraws the pane on every write nor leaves it
// still until the flood is parsed. Only the emulator's parsing goroutine
// uses it.
type pacer struct {
	last  time.Time // when the last redraw was asked for
	dirty bool      // the screen changed since
	timer *time.Timer
	armed bool // timer is set to fire
}

// changed notes that the screen changed: draw runs now if a frame (every)
// has passed since the last redraw, else when due fires.
func (p *pacer) changed(draw func(), every time.Duration) {
	p.dirty = true
	wait := every - time.Since(p.last)
	if wait <= 0 {
		p.draw(draw)
		return
	}
	if p.armed {
		return
	}
	if p.timer == nil {
		p.timer = time.NewTimer(wait)
	} else {
		p.timer.Reset(wait)
	}
	p.armed = true
}

// due fires when a held-back redraw is due; nil when none is held.
func (p *pacer) due() <-chan time.Time {
	if !p.armed {
		return nil
	}
	return p.timer.C
}

// fired draws what due held back.
func (p *pacer) fired(draw func()) {
	p.armed = false
	if p.dirty {
		p.draw(draw)
	}
}

func (p *pacer) draw(draw func()) {
	p.dirty = false
	p.last = time.Now()
	if draw != nil {
		draw()
	}
}

func (p *pacer) stop() {
	if p.timer != nil {
		p.timer.Stop()
	}
}
