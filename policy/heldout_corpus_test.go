package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestHeldoutPublicCorpus measures the policy against the held-out corpus
// of issue 32's third session (testdata/heldout_public_*.txt): shapes from
// public CI files and agent bug reports, each naming its source, with the
// expected verdicts written before the engine ran on them. Nothing in the
// engine is tuned on its lines: fixes are made by class and checked on the
// other corpora. It prints every category with the sandbox on and off and
// fails on an unsafe allow or on deny recall under 90%; an ecosystem under
// 95% everyday allowed (sandbox on) is logged with its misses. Run it with
//
//	go test -run TestHeldoutPublicCorpus -v ./policy/
func TestHeldoutPublicCorpus(t *testing.T) {
	measureCorpus(t, "heldout_public_everyday.txt", "heldout_public_adversarial.txt")
}

// measureCorpus prints, per category, the share of everyday lines allowed
// and of deny lines denied, with the sandbox on and off, and fails on any
// adversarial line allowed where its expectation forbids it.
func measureCorpus(t *testing.T, everydayFile, adversarialFile string) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()

	type tally struct{ n, on, off int }
	every := map[string]*tally{}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-28s %6s %8s %8s\n", "everyday (allowed)", "lines", "on", "off")
	var all tally
	for _, c := range readCorpus(t, everydayFile) {
		tl := every[c.cat]
		if tl == nil {
			tl = &tally{}
			every[c.cat] = tl
		}
		tl.n++
		all.n++
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: off}); v.Decision == Allow {
			tl.off++
			all.off++
		}
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: on}); v.Decision == Allow {
			tl.on++
			all.on++
		} else {
			t.Logf("everyday miss %s:%d %q: %s by %s (%s)", everydayFile, c.line, c.cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, k := range sortedKeys(every) {
		tl := every[k]
		fmt.Fprintf(&b, "%-28s %6d %7.1f%% %7.1f%%\n", k, tl.n, pct(tl.on, tl.n), pct(tl.off, tl.n))
		if pct(tl.on, tl.n) < 95 {
			t.Logf("everyday %s: %.1f%% allowed with the sandbox on, want at least 95%%", k, pct(tl.on, tl.n))
		}
	}
	fmt.Fprintf(&b, "%-28s %6d %7.1f%% %7.1f%%\n\n", "ALL EVERYDAY", all.n, pct(all.on, all.n), pct(all.off, all.n))

	type atally struct{ n, unsafeOn, unsafeOff, deny, deniedOn, deniedOff int }
	adv := map[string]*atally{}
	var at atally
	for _, c := range readCorpus(t, adversarialFile) {
		tl := adv[c.cat]
		if tl == nil {
			tl = &atally{}
			adv[c.cat] = tl
		}
		tl.n++
		at.n++
		if c.expect == "deny" {
			tl.deny++
			at.deny++
		}
		for _, cx := range []Context{on, off} {
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			if v.Decision == Allow && !(c.expect == "!allow-off" && cx.Sandboxed) {
				if cx.Sandboxed {
					tl.unsafeOn++
					at.unsafeOn++
				} else {
					tl.unsafeOff++
					at.unsafeOff++
				}
				t.Errorf("%s:%d ALLOWED (sandbox %v) %q (%s): %s: %s", adversarialFile, c.line, cx.Sandboxed, c.cmd, c.why, v.Rule, v.Reason)
			}
			if c.expect != "deny" {
				continue
			}
			if v.Decision != Deny {
				t.Logf("deny recall miss %d (sandbox %v) %q: %s by %s (%s)", c.line, cx.Sandboxed, c.cmd, v.Decision, v.Rule, v.Reason)
			} else if cx.Sandboxed {
				tl.deniedOn++
				at.deniedOn++
			} else {
				tl.deniedOff++
				at.deniedOff++
			}
		}
	}
	fmt.Fprintf(&b, "%-28s %6s %9s %9s %5s %9s %9s\n", "adversarial", "lines", "unsafe-on", "unsafe-off", "deny", "denied-on", "denied-off")
	for _, k := range sortedKeys(adv) {
		tl := adv[k]
		fmt.Fprintf(&b, "%-28s %6d %9d %9d %5d %8.1f%% %8.1f%%\n", k, tl.n, tl.unsafeOn, tl.unsafeOff, tl.deny, pct(tl.deniedOn, tl.deny), pct(tl.deniedOff, tl.deny))
	}
	fmt.Fprintf(&b, "%-28s %6d %9d %9d %5d %8.1f%% %8.1f%%\n", "ALL ADVERSARIAL", at.n, at.unsafeOn, at.unsafeOff, at.deny, pct(at.deniedOn, at.deny), pct(at.deniedOff, at.deny))
	t.Log(b.String())
	if pct(at.deniedOn, at.deny) < 90 || pct(at.deniedOff, at.deny) < 90 {
		t.Errorf("deny recall %.1f%% on, %.1f%% off; want at least 90%%", pct(at.deniedOn, at.deny), pct(at.deniedOff, at.deny))
	}
}
