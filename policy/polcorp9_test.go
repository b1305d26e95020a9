package policy

import (
	"strings"
	"testing"
)

// polcorp9Open lists the rows of testdata/corpus/polcorp9-1207.tsv still
// allowed unsafely, by class of miss, while their fix is pending: they are
// reported, not failed. A row listed here that is no longer allowed fails
// the test, so the list only shrinks.
var polcorp9Open = map[string]string{}

// TestPolcorp9Corpus measures the policy against the ninth independent
// corpus (testdata/corpus/polcorp9-1207.tsv), written by h/polcorp9 from
// public CLAUDE.md/AGENTS.md files, Makefiles, agent issue threads, bypass
// reports and tool manuals before the engine's rules were read or the engine
// was run on it: everyday work in every ecosystem issue 32 names, in-place
// destruction of uncommitted work, secrets, exfiltration, environment dumps,
// pushes, publishing, run-later files, host persistence, destruction,
// escapes, package-manager tricks, and alternative spellings (class
// spell/*). It reports per class with the sandbox on and off and fails on any
// unsafe allow not listed in polcorp9Open. Run it with
//
//	go test -count=1 -run TestPolcorp9Corpus -v ./policy/
func TestPolcorp9Corpus(t *testing.T) {
	measureTSVCorpus(t, "corpus/polcorp9-1207.tsv", polcorp9Open)
}

// TestPolcorp9InPlace measures polcorp9's in-place rows (class
// sandbox/inplace, and the spell/* rows labelled sandbox, which spell git
// reset --hard and git clean -fdx) in the mode they are about: the person's
// real files (InPlace, no sandbox). The TSV harness's sandbox-off mode is a
// copy; in place, with no checkpoint, none of these may be allowed (issue 32
// What to build 3). With a checkpoint the engine may allow them; that count
// is reported.
func TestPolcorp9InPlace(t *testing.T) {
	ctx := testEnv(t)
	ctx.InPlace = true
	cp := ctx
	cp.Checkpointed = true
	e := Default()
	n, allowed, allowedCp := 0, 0, 0
	for _, r := range readTSVCorpus(t, "corpus/polcorp9-1207.tsv") {
		if r.expect != "sandbox" || !(r.class == "sandbox/inplace" || strings.HasPrefix(r.class, "spell/")) {
			continue
		}
		n++
		v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: ctx})
		if v.Decision == Allow {
			allowed++
			t.Errorf("in place, no checkpoint: %q allowed by %s (%s) [%s]", r.cmd, v.Rule, v.Reason, r.source)
		}
		if e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cp}).Decision == Allow {
			allowedCp++
		}
	}
	t.Logf("in-place rows: %d; allowed in place without a checkpoint: %d; allowed with a checkpoint: %d", n, allowed, allowedCp)
}
