package policy

import (
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/internal/norace"
)

// outsideRaceSweeps are the corpus sweeps that, in a test binary built
// with -race (the README's test command), run in one child `go test` built
// without it. Each judges corpus rows (the sweeps a few hundred thousand
// spellings) on one engine: pure computation whose concurrency
// TestConcurrentChecksAgree already checks under -race, and which the race
// detector made most of the whole package's CPU (issue 33: the suite in
// minutes on 2 cores). Every row and spelling is still judged on every
// run; only the instrumentation goes.
var outsideRaceSweeps = []string{
	"TestMetamorphicSpellingsNeverAllow",
	"TestRespellingsNeverAllow",
	"TestSpellingsNeverMorePermissive",
	"TestReadingIsNotChanged", // every corpus row, Checked twice in each of three contexts
	"TestPolcorpOffPrepared",  // four corpora in three workspaces
	// The corpus measurements (measureTSVCorpus), each row with the
	// sandbox on and off.
	"TestPol4PublicCorpus",
	"TestPolcorp10Corpus",
	"TestPolcorp1206Corpus",
	"TestPolcorp1207Corpus",
	"TestPolcorp11Corpus",
	"TestPolcorp12Corpus",
	"TestPolcorp13Corpus",
	"TestPolcorp14Corpus",
	"TestPolcorp15Corpus",
	"TestPolcorp16Corpus",
	"TestPolcorp5Corpus",
	"TestPolcorp6Corpus",
	"TestPolcorp7Corpus",
	"TestPolcorp8Corpus",
	"TestPolcorp9Corpus",
	"TestReview1207Corpus",
	"TestCorpusReport",
}

// outsideRaceSerial run in the same child but are not parallel (the
// deep-text tests set the process's stack limit): the deep-text tests, each
// parsing a few megabytes of nested shell text twice over, single-threaded
// (13.9 CPU-s under -race, 3.7 without, measured 2026-12-07 with
// tools/cgexec.sh; -cpuprofile: the race detector's shadow memory, then the
// parser), and the shebang corpus. Every text and row is still judged on
// every run.
var outsideRaceSerial = []string{
	"TestCheckAsksAboutTextNestedDeeperThanItReads",
	"TestReadShellRefusesTextNestedDeeperThanItReads",
	"TestShebangOffCorpus", // four corpora in two workspaces: 3.4 CPU-s under -race, 0.8 without
}

// sweepChild is the one child run the sweeps share (internal/norace).
var sweepChild = &norace.Child{
	What:  "the policy sweeps",
	Env:   "SENTINEL_POLICY_SWEEP_CHILD",
	Tests: append(slices.Clone(outsideRaceSweeps), outsideRaceSerial...),
}

// sweptOutsideRace reports whether t's sweep ran in the child, with its
// result made t's own: its log lines logged, its failure t's failure. It
// is false (run the sweep here) in a binary built without -race and in the
// child.
func sweptOutsideRace(t *testing.T) bool {
	t.Helper()
	return sweepChild.Ran(t)
}
