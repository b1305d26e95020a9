package policy

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestCorpusReport measures the policy against the corpora and prints, per
// category, how many everyday lines are allowed (judged inside the sandbox,
// as a run does), how many adversarial lines are allowed (with the sandbox
// on or off: must be none) and the deny recall on the lines labelled deny
// (clearly destructive or exfiltrating). Run it with
//
//	go test -run TestCorpusReport -v ./policy/
func TestCorpusReport(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()

	type tally struct{ n, allowed, allowedOff, deny, denied int }
	every := map[string]*tally{}
	adv := map[string]*tally{}
	get := func(m map[string]*tally, k string) *tally {
		if m[k] == nil {
			m[k] = &tally{}
		}
		return m[k]
	}
	var total, totalAllowed int
	var totalOff int
	for _, file := range []string{"everyday.txt", "agents_everyday.txt", "ecosystems_everyday.txt"} {
		for _, c := range readCorpus(t, file) {
			if e.Check(Query{Kind: KindShell, Command: c.cmd, Context: off}).Decision == Allow {
				get(every, strings.TrimSuffix(file, ".txt")+"/"+c.cat).allowedOff++
				totalOff++
			}
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: on})
			k := strings.TrimSuffix(file, ".txt") + "/" + c.cat
			tl := get(every, k)
			tl.n++
			total++
			if v.Decision == Allow {
				tl.allowed++
				totalAllowed++
			}
			if file != "everyday.txt" && !c.ok(v.Decision) {
				t.Errorf("%s:%d %q (%s): got %s by %s (%s), want %s", file, c.line, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
			}
		}
	}
	var unsafe, denyN, denied int
	for _, file := range []string{"adversarial.txt", "agents_adversarial.txt", "bypass_classes.txt", "ecosystems_adversarial.txt"} {
		for _, c := range readCorpus(t, file) {
			k := strings.TrimSuffix(file, ".txt") + "/" + c.cat
			tl := get(adv, k)
			tl.n++
			for _, cx := range []Context{on, off} {
				v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
				if v.Decision == Allow && c.expect == "!allow-off" && cx.Sandboxed {
					continue // the project's own code, inside the sandbox
				}
				if file != "adversarial.txt" && v.Decision != Allow && !c.ok(v.Decision) {
					t.Errorf("%s:%d (sandbox %v) %q (%s): got %s by %s (%s), want %s", file, c.line, cx.Sandboxed, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
				}
				if v.Decision == Allow {
					tl.allowed++
					unsafe++
					t.Errorf("%s:%d ALLOWED (sandbox %v) %q (%s): %s: %s", file, c.line, cx.Sandboxed, c.cmd, c.why, v.Rule, v.Reason)
				}
				if cx.Sandboxed && c.expect == "deny" {
					tl.deny++
					denyN++
					if v.Decision == Deny {
						tl.denied++
						denied++
					} else {
						t.Logf("deny recall miss %s:%d %q: %s by %s (%s)", file, c.line, c.cmd, v.Decision, v.Rule, v.Reason)
					}
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-44s %6s %8s %8s\n", "everyday (allowed with the sandbox on, off)", "lines", "on", "off")
	for _, k := range sortedKeys(every) {
		tl := every[k]
		fmt.Fprintf(&b, "%-44s %6d %7.1f%% %7.1f%%\n", k, tl.n, pct(tl.allowed, tl.n), pct(tl.allowedOff, tl.n))
	}
	fmt.Fprintf(&b, "%-44s %6d %7.1f%% %7.1f%%\n\n", "ALL EVERYDAY", total, pct(totalAllowed, total), pct(totalOff, total))
	fmt.Fprintf(&b, "%-44s %6s %8s %6s %8s\n", "adversarial (sandbox on and off)", "lines", "allowed", "deny", "denied")
	for _, k := range sortedKeys(adv) {
		tl := adv[k]
		fmt.Fprintf(&b, "%-44s %6d %8d %6d %7.1f%%\n", k, tl.n, tl.allowed, tl.deny, pct(tl.denied, tl.deny))
	}
	fmt.Fprintf(&b, "%-44s %6s %8d %6d %7.1f%%\n", "ALL ADVERSARIAL (unsafe allows, deny recall)", "", unsafe, denyN, pct(denied, denyN))
	t.Log(b.String())
	if pct(totalAllowed, total) < 95 {
		t.Errorf("everyday allowed %.1f%%, want at least 95%%", pct(totalAllowed, total))
	}
	if pct(denied, denyN) < 90 {
		t.Errorf("deny recall %.1f%%, want at least 90%%", pct(denied, denyN))
	}
	// The independent TSV corpora, each reported per class with the
	// sandbox on and off (tsvcorpus_test.go); polcorp5-1206 is
	// TestPolcorp5Corpus's, the same measurement, made once.
	t.Run("polcorp4-1206", func(t *testing.T) {
		measureTSVCorpus(t, "corpus/polcorp4-1206.tsv", polcorp4Open)
	})
}

// polcorp4Open lists the rows of testdata/corpus/polcorp4-1206.tsv still
// allowed unsafely, by class, while their fix is pending: they are
// reported, not failed.
var polcorp4Open = map[string]string{}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
