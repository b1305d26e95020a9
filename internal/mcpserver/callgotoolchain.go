package mcpserver

import (
	"io"
	"os"
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
	pl := c.placeOf(root)
	out := placeflags.GoToolchain(d, func(p string, e *checkpoint.Entry, after bool) []byte {
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
	})
	for i := range out {
		out[i].Path = filepath.Join(root, filepath.FromSlash(out[i].Path))
	}
	return out
}

// readInPlace is the file p (slash-separated) of the place at root as it
// is now, read never through a link out of it; nil when it cannot be
// read whole within max.
func readInPlace(root, p string, max int64) []byte {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil
	}
	defer r.Close()
	f, err := r.Open(filepath.FromSlash(p))
	if err != nil {
		return nil
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil || int64(len(b)) > max {
		return nil
	}
	return b
}
