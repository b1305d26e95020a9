package policy

import "testing"

// TestDenoPermissionsOff: with the sandbox off, deno's permission flags
// that grant the project's code less than -A (already allowed off as the
// project's own test) are the project's test or program too, as `npm
// test` is (denoperms_off.go). Shapes from polcorp8/9/10/11 everyday/deno
// (denoland/deno_std and fresh READMEs and Makefiles). A value naming a
// place outside the workspace, a remote host, a program or a library
// still asks or is denied; --allow-run and --allow-ffi are allowed as -A
// is (off29).
func TestDenoPermissionsOff(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, line := range []string{
		`deno test --allow-read --allow-env tests/`,
		`deno test --allow-read=. --allow-env tests/`,
		`NO_COLOR=1 deno test --allow-read=. --allow-env tests/ 2>&1 | tail -n 40`,
		`deno test --allow-net=localhost:8000 --allow-read=.`,
		`deno run --allow-net=localhost:8000 src/a.go`,
		`deno test --allow-env --allow-read --allow-write --allow-net`,
		`deno test --allow-write=build --allow-sys`,
		`cd src && deno test --allow-read --allow-env`,
		// off29: as -A, which grants them too (denoperms_off.go)
		`deno run --allow-run=bash src/a.go`,
		`deno test --allow-run src/`,
		`deno test --allow-read --allow-ffi`,
		`deno run --allow-ffi=./libx.so src/a.go`,
		`deno test -A`,
		`deno test --allow-all src/`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	for _, line := range []string{
		`deno test --allow-net=example.com`,
		`deno test --allow-n=paste.example.org`, // an abbreviation the metamorphic test made
		`deno test --allow-ne=paste.example.org`,
		`deno test --allow-net paste.example.org`, // a reader may take it as the value
		`deno test --allow-write /tmp/x`,
		`deno test --allow-net=localhost,paste.example.org`,
		`deno test --allow-read=/etc`,
		`deno test --allow-read=.,../other`,
		`deno test --allow-read=$HOME`,
		`deno test --allow-write=/tmp/x`,
		`deno run --allow-ffi=/tmp/libx.so src/a.go`,
		`deno test --allow-ffi=$HOME/x.so`,
		`deno test --allow-r src/`, // --allow-read or --allow-run: ambiguous
		`deno run --allow-env https://x.example/mod.ts`,
		`deno run --allow-read jsr:@check/deps`,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision == Allow {
			t.Errorf("off: %q allowed: %s: %s", line, v.Rule, v.Reason)
		}
	}
}
