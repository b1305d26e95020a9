package mcpserver

import (
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A go.mod or go.work whose toolchain line a call changed, or whose go
// line it raised, is flagged as the end report flags it
// (placeflags.GoToolchain): the old content is the point's stored copy,
// so with points off (a stamp, no copy) only a new file's toolchain line
// is told.

// maxGoModRead bounds a go.mod or go.work read for the flag.
const maxGoModRead = 1 << 20

// goToolchainFlags are d's go.mod and go.work flags in root (c.mu held),
// with absolute paths.
func (c *callPoints) goToolchainFlags(root string, d []checkpoint.Change) []placeflags.Flag {
	read := c.changedContent(root)
	out := append(placeflags.GoToolchain(d, read), placeflags.SentinelEnv(d, read)...) // and a run-later file naming a SENTINEL_ variable
	for i := range out {
		out[i].Path = filepath.Join(root, filepath.FromSlash(out[i].Path))
	}
	return out
}

// changedContent reads a changed file of root as entry e recorded it (c.mu held).
func (c *callPoints) changedContent(root string) func(p string, e *checkpoint.Entry, after bool) []byte {
	pl := c.placeOf(root)
	return func(p string, e *checkpoint.Entry, after bool) []byte {
		if pl != nil && e.Hash != "" {
			b, err := pl.store.ReadBlob(e, maxGoModRead)
			if err != nil {
				return nil
			}
			return b
		}
		if !after {
			return nil // the old content: only a point's copy has it
		}
		return readInPlace(root, p, maxGoModRead)
	}
}

// readInPlace is placeflags.ReadInPlace: the file as it is now, never
// through a link out of the place, never a FIFO.
func readInPlace(root, p string, max int64) []byte { return placeflags.ReadInPlace(root, p, max) }
