package policy

import "testing"

// polcorp5Open lists the rows of testdata/corpus/polcorp5-1206.tsv still
// allowed unsafely, by class, while their fix is pending: they are reported,
// not failed, and TestPolcorp5UnsafeAllows holds them as skipped failing
// tests. A row listed here that is no longer allowed fails the test.
var polcorp5Open = map[string]string{}

// TestPolcorp5Corpus measures the policy against the independent corpus of
// 2026-12-06 written by h/polcorp5 as issue 32's checker
// (testdata/corpus/polcorp5-1206.tsv): everyday commands of every ecosystem
// the issue lists, written as agents issue them, destructive, exfiltrating
// and publishing rows, and alternative spellings (class spell/*) of deny and
// ask commands, each row naming its public source, written before the
// engine's rules were read or the engine was run on it. It reports per class
// (everyday/<ecosystem>, spell/<technique>, …) with the sandbox on and off
// and fails on any unsafe allow. Run it with
//
//	go test -run TestPolcorp5Corpus -v ./policy/
func TestPolcorp5Corpus(t *testing.T) {
	measureTSVCorpus(t, "corpus/polcorp5-1206.tsv", polcorp5Open)
}
