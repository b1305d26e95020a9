package runner

import (
	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A changed toolchain line (or a raised go line) in a go.mod or go.work of
// the place chooses the Go the person's next go command runs
// (placeflags.GoToolchain). The old content is the checkpoint's stored
// copy; the new one the end's, or the file itself when the end could not
// store it.

// maxGoModRead bounds a go.mod or go.work read for the flag.
const maxGoModRead = 1 << 20

// goToolchainFlags are changes' go.mod and go.work flags.
func (c *inPlaceCheckpoint) goToolchainFlags(changes []checkpoint.Change) []Flag {
	return flagsOf(placeflags.GoToolchain(changes, c.changedContent(maxGoModRead)))
}

// sentinelEnvFlags are changes' run-later files that now name one of
// Sentinel's own variables (placeflags.SentinelEnv).
func (c *inPlaceCheckpoint) sentinelEnvFlags(changes []checkpoint.Change) []Flag {
	return flagsOf(placeflags.SentinelEnv(changes, c.changedContent(maxGoModRead)))
}

// changedContent reads a changed file's content as an entry recorded it,
// up to max: the stored copy, or the file itself when the end could not
// store it.
func (c *inPlaceCheckpoint) changedContent(max int64) func(p string, e *checkpoint.Entry, after bool) []byte {
	return func(p string, e *checkpoint.Entry, after bool) []byte {
		if b, err := c.store.ReadBlob(e, max); err == nil {
			return b
		}
		if c.rec == nil || e.Hash != "" || !after {
			return nil // stored but not readable, or the old content, which only the store has
		}
		return placeflags.ReadInPlace(c.rec.Place, p, max) // never through a link out of the place, never a FIFO
	}
}
