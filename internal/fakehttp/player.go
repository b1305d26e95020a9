package fakehttp

import "sync"

// Player plays a fake server's script: each main-loop request takes the
// first turn not yet played whose condition accepts it (a nil condition
// accepts any request), so a test can script turns that wait for, say, a
// tool's result.
type Player[R, T any] struct {
	mu    sync.Mutex
	turns []T
	used  []bool
	when  func(T) func(R) bool
}

// NewPlayer plays turns; when returns a turn's condition.
func NewPlayer[R, T any](turns []T, when func(T) func(R) bool) *Player[R, T] {
	return &Player[R, T]{turns: turns, used: make([]bool, len(turns)), when: when}
}

// Take plays the first unplayed turn that accepts r; false when none does.
func (p *Player[R, T]) Take(r R) (T, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, t := range p.turns {
		if p.used[i] {
			continue
		}
		if cond := p.when(t); cond != nil && !cond(r) {
			continue
		}
		p.used[i] = true
		return t, true
	}
	var zero T
	return zero, false
}

// Used is how many turns have been played.
func (p *Player[R, T]) Used() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, u := range p.used {
		if u {
			n++
		}
	}
	return n
}
