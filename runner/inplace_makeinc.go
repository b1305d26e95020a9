package runner

import (
	"os"

	"github.com/sentinelhq/sentinel/internal/placeflags"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// make reads what a makefile includes as make code on the next make,
// whatever its name, and a folder of the place on the person's PATH runs
// an executable the coder made or changed there when the person next
// types its name. The person's makefiles (with the ones their recipes
// run make on, and the ones their own MAKEFILES or an .envrc's names),
// .envrc files and PATH are read
// when the checkpoint is taken, before the coder acts, by the reader
// `sentinel mcp` uses too (placeflags.Read); a changed file they make
// run is flagged at the end like the makefile itself.

// placeReads reads before's makefiles and .envrc files under root, with
// the PATH and MAKEFILES this process was started with (the person's
// shell's).
func placeReads(root string, before *checkpoint.Manifest) placeflags.Reads {
	return placeflags.Read(root, before, os.Getenv("PATH"), os.Getenv("MAKEFILES"))
}

// flagsOf is the shared reader's flags as the report's.
func flagsOf(in []placeflags.Flag) []Flag {
	out := make([]Flag, len(in))
	for i, f := range in {
		out[i] = Flag(f)
	}
	return out
}
