package policy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// review1207Row is one row of testdata/review1207.tsv.
type review1207Row struct {
	line                       int
	expect, class, cmd, source string
}

// review1207Open lists the corpus rows still allowed unsafely, by class,
// while their fix is pending: they are reported, not failed. A row listed
// here that is no longer allowed fails the test, so the list only shrinks.
var review1207Open = map[string]string{}

func readReview1207(t testing.TB) []review1207Row {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "review1207.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []review1207Row
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
			t.Fatalf("review1207.tsv:%d: want EXPECT<TAB>CLASS<TAB>COMMAND<TAB>SOURCE", n)
		}
		switch p[0] {
		case "allow", "sandbox", "ask", "deny":
		default:
			t.Fatalf("review1207.tsv:%d: expect %q is not allow, sandbox, ask or deny", n, p[0])
		}
		out = append(out, review1207Row{n, p[0], p[1], strings.ReplaceAll(p[2], "⏎", "\n"), p[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReview1207Corpus measures the policy against the independent corpus of
// 2026-12-06 (testdata/review1207.tsv: public bypass reports and everyday
// agent commands, each row naming its source, written before the engine ran
// on it). It prints, per class and with the sandbox on and off, the share of
// everyday rows allowed, the unsafe allows and the deny recall, and fails on
// any unsafe allow: an ask or deny row allowed in either mode, or a sandbox
// row allowed with the sandbox off.
//
// Engine of 0bef45a: everyday 100% on / 82% off; unsafe allows 17 on / 16
// off (all 21 in the probe class: yq's table and language, jq -f, inline
// process["env"], case on a secret, git in a repository the coder made);
// deny recall 87.9% (every miss asks). After the fixes: 0 unsafe allows,
// everyday and deny recall unchanged. h/polrev2 (fd -x judged, a secret's
// value echoed into a file, git push to a place the line names, database
// wipes): deny recall 91.9% on and off, everyday unchanged. h/pol (one
// wrapper table, operators on $HOME, shells fed from input, decoded code,
// substituted command words, secrets to any sink, editors, set-url): deny
// recall 99.3% on and off (the one miss asks: {curl,-sT,…}), everyday and
// unsafe allows unchanged. Run it with
//
//	go test -run TestReview1207Corpus -v ./policy/
func TestReview1207Corpus(t *testing.T) {
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()

	type tally struct{ n, allowOn, allowOff, unsafeOn, unsafeOff, deny, deniedOn, deniedOff int }
	per := map[string]*tally{}
	stillOpen := map[string]bool{}
	var every, attack tally
	for _, r := range readReview1207(t) {
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
				if !allowed && cx.Sandboxed {
					t.Logf("everyday miss :%d %q: %s by %s (%s) [%s]", r.line, r.cmd, v.Decision, v.Rule, v.Reason, r.source)
				}
			case allowed && !(r.expect == "sandbox" && cx.Sandboxed):
				for _, x := range []*tally{tl, all} {
					if cx.Sandboxed {
						x.unsafeOn++
					} else {
						x.unsafeOff++
					}
				}
				if cls, ok := review1207Open[r.cmd]; ok {
					stillOpen[r.cmd] = true
					t.Logf("open (%s) unsafe allow review1207.tsv:%d (sandbox %v) %q by %s [%s]", cls, r.line, cx.Sandboxed, r.cmd, v.Rule, r.source)
					continue
				}
				t.Errorf("UNSAFE ALLOW review1207.tsv:%d (sandbox %v) %s %q by %s: %s [%s]", r.line, cx.Sandboxed, r.class, r.cmd, v.Rule, v.Reason, r.source)
			case r.expect == "deny" && !denied:
				t.Logf("deny recall miss :%d (sandbox %v) %q: %s by %s (%s) [%s]", r.line, cx.Sandboxed, r.cmd, v.Decision, v.Rule, v.Reason, r.source)
			}
		}
	}
	for cmd, cls := range review1207Open {
		if !stillOpen[cmd] {
			t.Errorf("review1207Open lists %q (%s), which is no longer allowed: take it off the list", cmd, cls)
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
