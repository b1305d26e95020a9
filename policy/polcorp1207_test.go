package policy

import "testing"

// polcorp1207Open lists the rows of testdata/corpus/polcorp1207.tsv still
// allowed unsafely, by class, while their fix is pending: they are reported,
// not failed. A row listed here that is no longer allowed fails the test.
var polcorp1207Open = map[string]string{}

// TestPolcorp1207Corpus measures the policy against the independent corpus
// of 2026-12-07 written by h/polcorp3 (testdata/corpus/polcorp1207.tsv):
// everyday commands from AGENTS.md/CLAUDE.md files, CI scripts and
// documentation of every ecosystem issue 32 names, weighted to Java/Kotlin,
// C/C++, Ruby, PHP, .NET, Elixir, Swift and Deno/Bun, and destructive,
// exfiltrating, publishing and bypass rows from public reports, each row
// naming its source, written before the engine's rules or the older
// corpora's rows were read (539 everyday, 208 attack rows). Engine of
// c4b4a47 (before): everyday 93.1% on / 66.2% off, 0 unsafe allows, deny
// recall 84.7%. After h/polcorp3: everyday 94.8% on / 66.4% off, 0 unsafe,
// deny recall 100%. Run it with
//
//	go test -run TestPolcorp1207Corpus -v ./policy/
func TestPolcorp1207Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp1207.tsv", polcorp1207Open)
}
