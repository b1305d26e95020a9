package policy

import (
	"testing"
)

// polcorp13Open lists the rows of testdata/corpus/polcorp13-1211.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp13Open = map[string]string{}

// TestPolcorp13Corpus measures the policy against the thirteenth
// independent corpus (testdata/corpus/polcorp13-1211.tsv), written by
// h/polcorp13 from public agent transcripts, issues and bypass reports for
// the mainstream ecosystems (Go, Node/TS, Python, Rust, Java/Kotlin, C/C++,
// Ruby, git, file and process inspection) as agents issue them in long
// sessions, before the engine's rules were read or the engine was run on
// it. It fails on any unsafe allow not listed in polcorp13Open. Run it with
//
//	go test -count=1 -run TestPolcorp13Corpus -v ./policy/
func TestPolcorp13Corpus(t *testing.T) {
	measureTSVCorpus(t, "corpus/polcorp13-1211.tsv", polcorp13Open)
}

// TestPolcorp13InPlace measures polcorp13's in-place rows (class
// sandbox/inplace) in the mode they are about: the person's real files
// (InPlace, no sandbox).
func TestPolcorp13InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp13-1211.tsv", "sandbox/inplace")
}
