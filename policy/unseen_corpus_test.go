package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestUnseenCorpus measures the policy against the corpus written in issue
// 32's second session before the engine was tuned on it
// (testdata/unseen_everyday.txt, testdata/unseen_adversarial.txt). It prints
// every category with the sandbox on and off and fails on any unsafe allow
// or on deny recall under 90%; an ecosystem under 95% everyday allowed
// (sandbox on) is logged with its misses. Run it with
//
//	go test -run TestUnseenCorpus -v ./policy/
func TestUnseenCorpus(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()

	type tally struct{ n, on, off int }
	every := map[string]*tally{}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-28s %6s %8s %8s\n", "everyday (allowed)", "lines", "on", "off")
	var n, nOn, nOff int
	for _, c := range readCorpus(t, "unseen_everyday.txt") {
		tl := every[c.cat]
		if tl == nil {
			tl = &tally{}
			every[c.cat] = tl
		}
		tl.n++
		n++
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: off}); v.Decision == Allow {
			tl.off++
			nOff++
		}
		v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: on})
		if v.Decision == Allow {
			tl.on++
			nOn++
		} else {
			t.Logf("everyday miss %d %q: %s by %s (%s)", c.line, c.cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, k := range sortedKeys(every) {
		tl := every[k]
		fmt.Fprintf(&b, "%-28s %6d %7.1f%% %7.1f%%\n", k, tl.n, pct(tl.on, tl.n), pct(tl.off, tl.n))
		if pct(tl.on, tl.n) < 95 {
			// Reported, not failed: the misses left are logged above and
			// named in the closing note.
			t.Logf("everyday %s: %.1f%% allowed with the sandbox on, want at least 95%%", k, pct(tl.on, tl.n))
		}
	}
	fmt.Fprintf(&b, "%-28s %6d %7.1f%% %7.1f%%\n\n", "ALL EVERYDAY", n, pct(nOn, n), pct(nOff, n))

	type atally struct{ n, unsafeOn, unsafeOff, deny, deniedOn, deniedOff int }
	adv := map[string]*atally{}
	var all atally
	for _, c := range readCorpus(t, "unseen_adversarial.txt") {
		tl := adv[c.cat]
		if tl == nil {
			tl = &atally{}
			adv[c.cat] = tl
		}
		tl.n++
		all.n++
		if c.expect == "deny" {
			tl.deny++
			all.deny++
		}
		for _, cx := range []Context{on, off} {
			if c.expect == "!allow-inplace" {
				cx.InPlace = true // workspace work in a disposable copy; judged where it is not
			}
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			if v.Decision == Allow && !(c.expect == "!allow-off" && cx.Sandboxed) {
				if cx.Sandboxed {
					tl.unsafeOn++
					all.unsafeOn++
				} else {
					tl.unsafeOff++
					all.unsafeOff++
				}
				t.Errorf("unseen_adversarial.txt:%d ALLOWED (sandbox %v) %q (%s): %s: %s", c.line, cx.Sandboxed, c.cmd, c.why, v.Rule, v.Reason)
			}
			if c.expect == "deny" {
				if v.Decision != Deny {
					t.Logf("deny recall miss %d (sandbox %v) %q: %s by %s (%s)", c.line, cx.Sandboxed, c.cmd, v.Decision, v.Rule, v.Reason)
				} else if cx.Sandboxed {
					tl.deniedOn++
					all.deniedOn++
				} else {
					tl.deniedOff++
					all.deniedOff++
				}
			}
		}
	}
	fmt.Fprintf(&b, "%-28s %6s %9s %9s %5s %9s %9s\n", "adversarial", "lines", "unsafe-on", "unsafe-off", "deny", "denied-on", "denied-off")
	for _, k := range sortedKeys(adv) {
		tl := adv[k]
		fmt.Fprintf(&b, "%-28s %6d %9d %9d %5d %8.1f%% %8.1f%%\n", k, tl.n, tl.unsafeOn, tl.unsafeOff, tl.deny, pct(tl.deniedOn, tl.deny), pct(tl.deniedOff, tl.deny))
	}
	fmt.Fprintf(&b, "%-28s %6d %9d %9d %5d %8.1f%% %8.1f%%\n", "ALL ADVERSARIAL", all.n, all.unsafeOn, all.unsafeOff, all.deny, pct(all.deniedOn, all.deny), pct(all.deniedOff, all.deny))
	t.Log(b.String())
	if pct(all.deniedOn, all.deny) < 90 || pct(all.deniedOff, all.deny) < 90 {
		t.Errorf("deny recall %.1f%% on, %.1f%% off; want at least 90%%", pct(all.deniedOn, all.deny), pct(all.deniedOff, all.deny))
	}
}
