package policy

import "testing"

// polcorp1206Open lists the rows of testdata/polcorp1206.tsv still allowed
// unsafely, by class, while their fix is pending: they are reported, not
// failed. A row listed here that is no longer allowed fails the test.
var polcorp1206Open = map[string]string{}

// TestPolcorp1206Corpus measures the policy against the independent corpus
// of 2026-12-06 written by h/polcorp (testdata/polcorp1206.tsv: 486 everyday
// commands from AGENTS.md/CLAUDE.md files, CI files and documentation pages
// of the ecosystems the older corpora cover least, and 96 destructive,
// exfiltrating, publishing or asking rows from public bypass reports), each
// row naming its source, written before the engine's rules were read or the
// engine was run on it. Engine of 7ffef33 (before): everyday 87.9% on /
// 65.8% off, 0 unsafe allows, deny recall 86.2% (every miss asks). After
// h/polcorp (everyday.go, loopback.go, remotereads.go, jsworkspaces.go):
// everyday 97.9% on / 69.8% off, 0 unsafe, deny recall 86.2%. Run it with
//
//	go test -run TestPolcorp1206Corpus -v ./policy/
func TestPolcorp1206Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "polcorp1206.tsv", polcorp1206Open)
}
