package policy

import "testing"

// TestPrivateTempInsideTheSandbox: with the sandbox on, output captured
// into /tmp (a redirection, tee) and read back is the coder's own scratch
// space; with it off, it is a write outside the workspace. A program's own
// output flag pointing at /tmp, and the home or workspace when they live
// under /tmp, stay what they are.
func TestPrivateTempInsideTheSandbox(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	captured := []string{
		"go test ./... > /tmp/go-test.log",
		"git diff > /tmp/changes.patch",
		"go test ./... 2>&1 | tee /tmp/t.log",
		"npm test 2>&1 | tee -a /tmp/npm.log; tail -n 50 /tmp/npm.log",
		"cat /tmp/go-test.log",
		"{ go vet ./...; go test ./...; } > /tmp/check.log 2>&1",
		`go test ./... 2>&1 | tee "$TMPDIR/t.log"`,
	}
	for _, l := range captured {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow && l != "cat /tmp/go-test.log" {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	never := []string{
		"go test -o /tmp/x ./...",
		"git log --output=/tmp/x",
		"echo x > /tmp",
		"echo x > " + ctx.Home + "/.bashrc",
		"echo x | tee " + ctx.Home + "/.profile",
		"echo x > ../x",
		"echo x > ../../x",
	}
	for _, l := range never {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
}
