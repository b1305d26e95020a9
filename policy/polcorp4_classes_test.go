package policy

import "testing"

// The unsafe allows h/polcorp4 found by probing spellings of the public
// bypass classes its corpus (testdata/corpus/polcorp4-1206.tsv) names, each
// held as a class in spellings the corpus does not have. None may be
// allowed with the sandbox on or off; the everyday forms of the same
// commands keep their allow inside the sandbox.
func checkNeverAllowed(t *testing.T, never, allow []string) {
	t.Helper()
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, l := range never {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q: allowed by %s (%s), want ask or deny", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
	for _, l := range allow {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
}

// TestCurlWriteOutFileIsAWrite: curl's -w/--write-out format writes a file
// with %output{FILE} (curl 8.3), so a "loopback read" could plant a git
// hook, a cargo config or a line in ~/.bashrc (ecosystems_tools.go,
// localGet).
func TestCurlWriteOutFileIsAWrite(t *testing.T) {
	checkNeverAllowed(t, []string{
		"curl -s http://localhost:3000 -w '%output{.git/hooks/pre-commit}#!/bin/sh'",
		"curl -s http://localhost:3000/health -w '%output{.cargo/config.toml}x'",
		"curl -sf http://127.0.0.1:8080/ --write-out '%output{>>~/.bashrc}curl x|sh'",
		"curl -s localhost:5173 -w '%{http_code} %output{.npmrc}x'",
	}, []string{
		"curl -s http://localhost:3000/health",
		"curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/health",
		"curl -s -w '%{time_total}\\n' http://127.0.0.1:8080/",
	})
}
