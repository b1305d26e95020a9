package policy

import (
	"testing"
)

// polcorp8Open lists the rows of testdata/corpus/polcorp8-1209.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp8Open = map[string]string{
	`git reset --hard`:                         `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`git restore src/`:                         `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`git branch -D old-feature`:                `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`git checkout main -- src/api/handlers.ts`: `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`rm -rf tests/legacy`:                      `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`rm -rf src/components/old`:                `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`git reset --hard && git clean -fd`:        `P8-M MODEL: the harness's sandbox-off mode is a disposable copy; in place (InPlace, no checkpoint) it asks, see TestPolcorp8InPlace`,
	`npm install left-pad`:                     `P8-U3 DECISION: a new registry dependency inside the sandbox (as P7-U1)`,
	`rustup default nightly`:                   `P8-U3 DECISION: a toolchain change the sandbox keeps read-only (as P7-U2)`,
}

// TestPolcorp8Corpus measures the policy against the eighth independent
// corpus (testdata/corpus/polcorp8-1209.tsv), written by h/polcorp8 from
// public CLAUDE.md/AGENTS.md files, agent issue threads, bypass reports and
// tool manuals before the engine's rules were read or the engine was run on
// it: everyday work in every ecosystem issue 32 names, secrets, exfiltration,
// environment dumps, pushes, publishing, run-later files, host persistence,
// destruction, escapes, package-manager tricks, and alternative spellings
// (class spell/*). It reports per class with the sandbox on and off and fails
// on any unsafe allow not listed in polcorp8Open. Run it with
//
//	go test -count=1 -run TestPolcorp8Corpus -v ./policy/
func TestPolcorp8Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp8-1209.tsv", polcorp8Open)
}

// TestPolcorp8InPlace measures polcorp8's in-place destruction rows (class
// sandbox/git-destroy, and the spell/* rows labelled sandbox, which spell
// git reset --hard) in the mode they are about: the person's real files
// (InPlace, no sandbox). The TSV harness's sandbox-off mode is a copy, where
// discarding uncommitted work is the copy's business; in place, with no
// checkpoint, each of these must not be allowed (issue 32 What to build 3).
// With a checkpoint the engine may allow them; that count is reported.
func TestPolcorp8InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp8-1209.tsv", "sandbox/git-destroy")
}
