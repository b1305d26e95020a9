package policy

import (
	"testing"
)

// polcorp15Open lists the rows of testdata/corpus/polcorp15-1213.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp15Open = map[string]string{}

// TestPolcorp15Corpus measures the policy against the fifteenth independent
// corpus (testdata/corpus/polcorp15-1213.tsv), written by h/polcorp15 from
// the AGENTS.md/CLAUDE.md/Makefile command lists of monorepos, data/ML
// projects, infrastructure-as-code, mobile apps and local dev databases, and
// from 2025-26 public reports of agents destroying work and of permission
// bypasses, before the engine's rules were read or the engine was run on
// it. It fails on any unsafe allow not listed in polcorp15Open. Run it with
//
//	go test -count=1 -run TestPolcorp15Corpus -v ./policy/
func TestPolcorp15Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp15-1213.tsv", polcorp15Open)
}

// TestPolcorp15InPlace measures polcorp15's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox) in the mode they
// are about: the person's real files (InPlace, no sandbox).
func TestPolcorp15InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp15-1213.tsv", "sandbox/inplace")
}
