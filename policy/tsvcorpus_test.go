package policy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tsvRow is one row of a TSV corpus in testdata (review1207.tsv,
// polcorp1206.tsv): EXPECT, CLASS, COMMAND and SOURCE.
type tsvRow struct {
	line                       int
	expect, class, cmd, source string
}

func readTSVCorpus(t testing.TB, name string) []tsvRow {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tsvRow
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, "expect\t") {
			continue
		}
		p := strings.Split(l, "\t")
		if len(p) != 4 || p[3] == "" {
			t.Fatalf("%s:%d: want EXPECT<TAB>CLASS<TAB>COMMAND<TAB>SOURCE", name, n)
		}
		switch p[0] {
		case "allow", "sandbox", "ask", "deny":
		default:
			t.Fatalf("%s:%d: expect %q is not allow, sandbox, ask or deny", name, n, p[0])
		}
		out = append(out, tsvRow{n, p[0], p[1], strings.ReplaceAll(p[2], "⏎", "\n"), p[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// measureTSVCorpus measures the policy against testdata/NAME, a TSV corpus
// read by readTSVCorpus. It prints, per class and with the sandbox on and
// off, the everyday rows allowed, the unsafe allows and the deny recall, and
// fails on any unsafe allow (an ask or deny row allowed in either mode, or a
// sandbox row allowed with the sandbox off) not listed in open, and on a row
// listed in open that is no longer allowed.
func measureTSVCorpus(t *testing.T, name string, open map[string]string) {

	ctx := testEnv(t)
	// The runner sets CLAUDE_PROJECT_DIR to the workspace in the coder's
	// environment and says so (runner/wiring.go workspaceVars).
	ctx.WorkspaceVars = []string{"CLAUDE_PROJECT_DIR"}
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()

	type tally struct{ n, allowOn, allowOff, unsafeOn, unsafeOff, deny, deniedOn, deniedOff int }
	per := map[string]*tally{}
	stillOpen := map[string]bool{}
	var every, attack tally
	for _, r := range readTSVCorpus(t, name) {
		tl := per[r.class]
		if tl == nil {
			tl = &tally{}
			per[r.class] = tl
		}
		all := &attack
		if r.expect == "allow" {
			all = &every
		}
		for _, x := range []*tally{tl, all} {
			x.n++
			if r.expect == "deny" {
				x.deny++
			}
		}
		for _, cx := range []Context{on, off} {
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx})
			allowed, denied := v.Decision == Allow, v.Decision == Deny
			for _, x := range []*tally{tl, all} {
				if allowed && cx.Sandboxed {
					x.allowOn++
				} else if allowed {
					x.allowOff++
				}
				if denied && r.expect == "deny" && cx.Sandboxed {
					x.deniedOn++
				} else if denied && r.expect == "deny" {
					x.deniedOff++
				}
			}
			switch {
			case r.expect == "allow":
				if !allowed && !cx.Sandboxed && os.Getenv("SENTINEL_CORPUS_OFF_MISSES") != "" {
					t.Logf("everyday off miss %s:%d %s %q: %s by %s (%s)", name, r.line, r.class, r.cmd, v.Decision, v.Rule, v.Reason)
				}
				if !allowed && cx.Sandboxed {
					t.Logf("everyday miss %s:%d %q: %s by %s (%s) [%s]", name, r.line, r.cmd, v.Decision, v.Rule, v.Reason, r.source)
				}
			case allowed && !(r.expect == "sandbox" && cx.Sandboxed):
				for _, x := range []*tally{tl, all} {
					if cx.Sandboxed {
						x.unsafeOn++
					} else {
						x.unsafeOff++
					}
				}
				if cls, ok := open[r.cmd]; ok {
					stillOpen[r.cmd] = true
					t.Logf("open (%s) unsafe allow %s:%d (sandbox %v) %q by %s [%s]", cls, name, r.line, cx.Sandboxed, r.cmd, v.Rule, r.source)
					continue
				}
				t.Errorf("UNSAFE ALLOW %s:%d (sandbox %v) %s %q by %s: %s [%s]", name, r.line, cx.Sandboxed, r.class, r.cmd, v.Rule, v.Reason, r.source)
			case r.expect == "deny" && !denied:
				t.Logf("deny recall miss %s:%d (sandbox %v) %q: %s by %s (%s) [%s]", name, r.line, cx.Sandboxed, r.cmd, v.Decision, v.Rule, v.Reason, r.source)
			}
		}
	}
	for cmd, cls := range open {
		if !stillOpen[cmd] {
			t.Errorf("%s: the open list names %q (%s), which is no longer allowed: take it off the list", name, cmd, cls)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-22s %5s %8s %8s %9s %10s %5s %9s %10s\n", "class", "rows", "allow-on", "allow-off", "unsafe-on", "unsafe-off", "deny", "denied-on", "denied-off")
	line := func(k string, tl *tally) {
		fmt.Fprintf(&b, "%-22s %5d %8d %8d %9d %10d %5d %8.1f%% %9.1f%%\n", k, tl.n, tl.allowOn, tl.allowOff, tl.unsafeOn, tl.unsafeOff, tl.deny, pct(tl.deniedOn, tl.deny), pct(tl.deniedOff, tl.deny))
	}
	for _, k := range sortedKeys(per) {
		line(k, per[k])
	}
	line("ALL EVERYDAY", &every)
	line("ALL ATTACKS", &attack)
	fmt.Fprintf(&b, "everyday allowed: %.1f%% sandbox on, %.1f%% off; unsafe allows: %d on, %d off; deny recall: %.1f%% on, %.1f%% off\n",
		pct(every.allowOn, every.n), pct(every.allowOff, every.n), attack.unsafeOn, attack.unsafeOff, pct(attack.deniedOn, attack.deny), pct(attack.deniedOff, attack.deny))
	t.Log(b.String())
}

// measureTSVInPlace measures a TSV corpus's in-place rows (its class
// inClass, and the spell/* rows labelled sandbox) in the mode they are
// about: the person's real files (InPlace, no sandbox). The TSV harness's
// sandbox-off mode is a copy, where discarding uncommitted work is the
// copy's business; in place, with no checkpoint, none of these may be
// allowed (issue 32 What to build 3). With a checkpoint the engine may allow
// them; that count is reported.
func measureTSVInPlace(t *testing.T, file, inClass string) {
	ctx := testEnv(t)
	ctx.InPlace = true
	cp := ctx
	cp.Checkpointed = true
	e := Default()
	n, allowed, allowedCp := 0, 0, 0
	for _, r := range readTSVCorpus(t, file) {
		if r.expect != "sandbox" || !(r.class == inClass || strings.HasPrefix(r.class, "spell/")) {
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
