package runner

import (
	"fmt"
	"time"

	"github.com/sentinelhq/sentinel/internal/placelock"
)

// One in-place run acts on a place at a time (placelock): two at once
// made the placeholders and checkpoints of each fragile (a hooks folder
// one run removed at its end while the other's sandbox held it read-only
// by a mount was made anew and written by the other's coder; each one's
// checkpoint counted the other's changes as its own). A run takes its
// place before anything of it is made and holds it to its end; `sentinel
// undo` takes it too, so it never puts back files a live run is working
// on, and no run starts while an undo is.

// lockPlace takes project p's place for in-place run id, or refuses it
// with one line naming the live run and how to end it.
func lockPlace(p *Project, id string, started time.Time) (*placelock.Lock, error) {
	l, err := placelock.Acquire(p.Root, placelock.Holder{Run: id, Kind: placelock.KindExec, Started: started})
	if err != nil {
		return nil, fmt.Errorf("cannot work in place in %s: %w", p.Root, err)
	}
	return l, nil
}
