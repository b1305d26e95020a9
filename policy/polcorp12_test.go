package policy

import (
	"testing"
)

// polcorp12Open lists the rows of testdata/corpus/polcorp12-1210.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp12Open = map[string]string{}

// TestPolcorp12Corpus measures the policy against the twelfth independent
// corpus (testdata/corpus/polcorp12-1210.tsv), written by h/polcorp12 from
// public AGENTS.md/CLAUDE.md files, Makefiles and CI steps of the ecosystems
// the older corpora cover thinly (PHP, .NET, Elixir, Swift, Kotlin, Zig,
// Haskell, Scala, Dart, Terraform), agents' own idioms, and public bypass
// reports against agents' permission systems, before the engine's rules
// were read or the engine was run on it. It reports per class with the
// sandbox on and off and fails on any unsafe allow not listed in
// polcorp12Open. Run it with
//
//	go test -count=1 -run TestPolcorp12Corpus -v ./policy/
func TestPolcorp12Corpus(t *testing.T) {
	measureTSVCorpus(t, "corpus/polcorp12-1210.tsv", polcorp12Open)
}

// TestPolcorp12InPlace measures polcorp12's in-place rows (class
// sandbox/inplace) in the mode they are about: the person's real files
// (InPlace, no sandbox).
func TestPolcorp12InPlace(t *testing.T) {
	measureTSVInPlace(t, "corpus/polcorp12-1210.tsv", "sandbox/inplace")
}
