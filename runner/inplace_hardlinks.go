package runner

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// unshareOutside makes each file of the place that shares its data with a
// name outside it (a hard link from a package cache or a backup:
// checkpoint.SharedOutside) the place's own copy before the coder acts, so
// that the coder's writes cannot reach outside the place through it, and
// records the place again (cheaply: m is the previous record), keeping in
// it each copy's link facts from m (CarryOutside). It tells
// what it did. A file it cannot copy stops the run: the coder must not
// start with a way out of the place.
func unshareOutside(s *checkpoint.Store, root string, m *checkpoint.Manifest, lim checkpoint.Limits, emit func(journal.Lane, journal.Kind, string, any)) (*checkpoint.Manifest, error) {
	shared := m.SharedOutside()
	if len(shared) == 0 {
		return m, nil
	}
	done, err := checkpoint.Unshare(root, shared)
	if len(done) > 0 {
		eg := done
		if len(eg) > 5 {
			eg = append(eg[:5:5], fmt.Sprintf("and %d more", len(done)-5))
		}
		emit(journal.System, KindNotice, fmt.Sprintf("in place: %d file(s) shared their data with a file outside %s (hard links: a package cache's store, a backup made with cp -al): each is now this project's own copy, so the coder's writes stay in it: %s", len(done), root, strings.Join(eg, ", ")), nil)
	}
	if err != nil {
		return nil, fmt.Errorf("in place: %w; the coder's writes to it would change that other file too: make it a file of its own (cp -p FILE FILE.own && mv FILE.own FILE) or use sentinel run", err)
	}
	again, err := checkpoint.Take(s, root, checkpoint.Options{Limits: lim, Prev: m, Skip: checkpointSkip(), OpenUnlistable: true})
	if err != nil {
		return nil, err
	}
	// The record undo puts back is this one: it keeps which file outside
	// each copy was one with, so undo can make them one file again.
	again.CarryOutside(m, done)
	return again, nil
}

// refused is why the coder must not start, nil when it may (c nil too).
func (c *inPlaceCheckpoint) refused() error {
	if c == nil {
		return nil
	}
	return c.refuse
}
