package journal

import (
	"context"
	"time"
)

// FollowEvery is how often Follow looks for events a live run appended.
const FollowEvery = 200 * time.Millisecond

// Follow calls fn with each complete event of the journal at path, in
// order, holding one at a time, and goes on as the file grows for as long
// as live says its writer is still at work: a person watching a live run
// sees each event as it is written, not all of them when the run ends.
// Once live is false (nil means a finished journal), what was written up
// to then is read to its end and Follow returns. It returns ctx's end as
// nil: the watcher stopped watching. fn's error stops it and is returned.
func Follow(ctx context.Context, path string, live func() bool, fn func(Event) error) error {
	c, err := OpenCursor(path)
	if err != nil {
		return err
	}
	defer c.Close()
	drain := func() error {
		for {
			ev, ok, err := c.Next()
			if err != nil || !ok {
				return err
			}
			if err := fn(ev); err != nil {
				return err
			}
		}
	}
	tick := time.NewTicker(FollowEvery)
	defer tick.Stop()
	for {
		if err := drain(); err != nil {
			return err
		}
		// Asked after the file's end was read: a writer that has ended
		// wrote all it will before it ended, so one more read finds it.
		if live == nil || !live() {
			return drain()
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}
