package policy

import (
	"testing"
)

// polcorp14Open lists the rows of testdata/corpus/polcorp14-1212.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp14Open = map[string]string{
	`git restore index.md ROADMAP.md worklog_master.md`:  `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git restore --source=HEAD --staged --worktree -- .`: `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git stash drop stash@{0}`:                           `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout HEAD -- .`:                             `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`rm -f db/*.sqlite3`:                                 `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`true && rm important_file.txt`:                      `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout --force main`:                          `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git stash drop -q`:                                  `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
	`git checkout -q -f -B main origin/main`:             `P14-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp14InPlace`,
}

// TestPolcorp14Corpus measures the policy against the fourteenth
// independent corpus (testdata/corpus/polcorp14-1212.tsv), written by
// h/polcorp14 from AGENTS.md/CLAUDE.md command lists of real repositories
// in every ecosystem issue 32's check names, read-only tools, localhost
// health checks, venvs and the agents' own idioms, and from 2025-26 public
// reports of agents destroying work and their bypass spellings, before the
// engine's rules were read or the engine was run on it. It fails on any
// unsafe allow not listed in polcorp14Open. Run it with
//
//	go test -count=1 -run TestPolcorp14Corpus -v ./policy/
func TestPolcorp14Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp14-1212.tsv", polcorp14Open)
}

// TestPolcorp14InPlace measures polcorp14's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox) in the mode they
// are about: the person's real files (InPlace, no sandbox).
func TestPolcorp14InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp14-1212.tsv", "sandbox/inplace")
}
