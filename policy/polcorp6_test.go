package policy

import (
	"sort"
	"testing"
)

// polcorp6Open lists the rows of testdata/corpus/polcorp6-1207.tsv still
// allowed unsafely, by class, while their fix is pending: they are reported,
// not failed, and TestPolcorp6UnsafeAllows holds them as skipped failing
// tests. A row listed here that is no longer allowed fails the test.
var polcorp6Open = map[string]string{
	"go get github.com/stretchr/testify@v1.9.0 && go mod tidy": "U4 DECISION",
	"npm install axios":                    "U4 DECISION",
	"pnpm add -D vitest@latest":            "U4 DECISION",
	"yarn add left-pad":                    "U4 DECISION",
	"uv add httpx":                         "U4 DECISION",
	"pip install requests":                 "U4 DECISION",
	"cargo add tokio --features full":      "U4 DECISION",
	"bundle add faraday":                   "U4 DECISION",
	"composer require vendor/package-name": "U4 DECISION",
	"dotnet add package Newtonsoft.Json":   "U4 DECISION",
	"bun add zod":                          "U4 DECISION",
	"gh pr view 123 --json title,body":     "U7 non-localhost reads with credentials",
	"kubectl get pods -n prod":             "U7 non-localhost reads with credentials",
}

// TestPolcorp6Corpus measures the policy against the independent corpus of
// 2026-12-06 written by h/polcorp6 as issue 32's checker
// (testdata/corpus/polcorp6-1207.tsv): everyday commands of every ecosystem
// the issue lists, written as agents issue them, destructive, exfiltrating
// and publishing rows, and alternative spellings (class spell/*) of deny and
// ask commands, each row naming its public source, written before the
// engine's rules were read or the engine was run on it. It reports per class
// (everyday/<ecosystem>, spell/<technique>, …) with the sandbox on and off
// and fails on any unsafe allow not listed in polcorp6Open. Run it with
//
//	go test -run TestPolcorp6Corpus -v ./policy/
func TestPolcorp6Corpus(t *testing.T) {
	t.Parallel()             // see heavy_parallel_test.go
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	measureTSVCorpus(t, "corpus/polcorp6-1207.tsv", polcorp6Open)
}

// TestPolcorp6UnsafeAllows holds the unsafe allows polcorp6 found: an ask or
// deny row of the corpus must not be allowed with the sandbox on or off, a
// sandbox row not with it off. On main dd97e10 it fails on 89 rows (124
// decisions), every row of polcorp6Open: find -exec/-execdir/-ok running a
// reader on .env and keys (U1), publishing and deleting through python -m,
// uv/poetry/hatch run, node_modules/.bin and mix run -e (U2), new registry
// dependencies inside the sandbox (U4, a decision), registry access with the
// sandbox off (U5), build-tool wrappers and .bundle/config (U6), gh and
// kubectl reads inside the sandbox (U7), python -m stdlib modules that read
// secrets or run code on the line (U8), docker compose config and
// dotenv_values() (U10). It is skipped, naming the rows, while polcorp6Open
// is not empty; take the Skip out with the fixes and empty polcorp6Open.
func TestPolcorp6UnsafeAllows(t *testing.T) {
	if len(polcorp6Open) > 0 {
		var names []string
		for cmd, cls := range polcorp6Open {
			names = append(names, cls+": "+cmd)
		}
		sort.Strings(names)
		for _, n := range names {
			t.Log(n)
		}
		t.Skipf("%d unsafe allows of polcorp6 are open (listed above); the fixes of issue 32 take this Skip out", len(polcorp6Open))
	}
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, r := range readTSVCorpus(t, "corpus/polcorp6-1207.tsv") {
		if r.expect == "allow" {
			continue
		}
		for _, cx := range []Context{on, off} {
			if r.expect == "sandbox" && cx.Sandboxed {
				continue
			}
			if v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("%s (sandbox %v): %s row %q allowed by %s (%s)", r.class, cx.Sandboxed, r.expect, r.cmd, v.Rule, v.Reason)
			}
		}
	}
}
