package policy

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

func TestPol21OffDump(t *testing.T) {
	if os.Getenv("POL21_DUMP") == "" {
		t.Skip()
	}
	ctx := testEnv(t)
	e := Default()
	type row struct{ src, cmd string }
	var rows []row
	for _, f := range []string{"corpus/polcorp5-1206.tsv", "corpus/polcorp6-1207.tsv", "corpus/polcorp7-1208.tsv", "corpus/polcorp8-1209.tsv", "corpus/polcorp4-1206.tsv", "corpus/polcorp1207.tsv", "polcorp1206.tsv", "review1207.tsv"} {
		for _, r := range readTSVCorpus(t, f) {
			if r.expect == "allow" {
				rows = append(rows, row{f + ":" + r.class, r.cmd})
			}
		}
	}
	for _, f := range []string{"heldout2_everyday.txt", "heldout3_everyday.txt", "heldout_public_everyday.txt", "unseen_everyday.txt", "everyday.txt", "agents_everyday.txt", "ecosystems_everyday.txt"} {
		for _, c := range readCorpus(t, f) {
			rows = append(rows, row{f + ":" + c.cat, c.cmd})
		}
	}
	by := map[string][]string{}
	for _, r := range rows {
		v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: ctx})
		if v.Decision == Allow {
			continue
		}
		k := v.Decision.String() + " " + v.Rule
		by[k] = append(by[k], fmt.Sprintf("%s\t%q\t%s", r.src, r.cmd, v.Reason))
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(by[keys[i]]) > len(by[keys[j]]) })
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "== %s (%d)\n", k, len(by[k]))
		for _, l := range by[k] {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	os.WriteFile(os.Getenv("POL21_DUMP"), []byte(b.String()), 0o644)
}

func TestPol21Probe(t *testing.T) {
	f := os.Getenv("POL21_PROBE")
	if f == "" {
		t.Skip()
	}
	ctx := testEnv(t)
	for _, p := range []string{"gradlew", "mvnw", ".venv/bin/activate", ".venv/bin/pytest", "vendor/bin/phpunit", "bin/rails"} {
		os.MkdirAll(ctx.Workspace+"/"+p[:strings.LastIndex("/"+p, "/")], 0o755)
		os.WriteFile(ctx.Workspace+"/"+p, []byte("#!/bin/sh\n"), 0o755)
	}
	on := ctx
	on.Sandboxed = true
	e := Default()
	b, _ := os.ReadFile(f)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		v1 := e.Check(Query{Kind: KindShell, Command: l, Context: on})
		v0 := e.Check(Query{Kind: KindShell, Command: l, Context: ctx})
		fmt.Printf("%-5s %-5s %-60s | off: %s (%s)\n", v1.Decision, v0.Decision, l, v0.Rule, v0.Reason)
	}
}
