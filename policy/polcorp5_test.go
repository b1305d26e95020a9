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
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp5-1206.tsv", polcorp5Open)
}

// TestPolcorp5UnsafeAllows holds the unsafe allows polcorp5 found, every row
// of polcorp5Open: an ask or deny row must not be allowed with the sandbox on
// or off, a sandbox row not with it off. It fails on the engine of main
// 5a2982f (the run-later files pass as plain workspace writes, the install
// targets and the outside output directory as the project's build, split
// --filter as a file write, diff3 --diff-program and date -f as read-only
// commands, a secret variable in a here-string as a read-only filter's
// input) and is skipped until the fixes land; take the Skip out with them
// and empty polcorp5Open.
func TestPolcorp5UnsafeAllows(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	n := 0
	for _, r := range readTSVCorpus(t, "corpus/polcorp5-1206.tsv") {
		cls, ok := polcorp5Open[r.cmd]
		if !ok {
			continue
		}
		n++
		for _, cx := range []Context{on, off} {
			if r.expect == "sandbox" && cx.Sandboxed {
				continue
			}
			if v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("%s (sandbox %v): %s row %q allowed by %s (%s)", cls, cx.Sandboxed, r.expect, r.cmd, v.Rule, v.Reason)
			}
		}
	}
	if n != len(polcorp5Open) {
		t.Errorf("polcorp5Open names %d commands, the corpus has %d of them", len(polcorp5Open), n)
	}
}
