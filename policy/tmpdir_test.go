package policy

import "testing"

// TestPrivateTempInsideTheSandbox: with the sandbox on, output captured
// into /tmp (a redirection, tee) and read back is the coder's own scratch
// space, and so is a build's product (-o); with it off, it is a write
// outside the workspace. Other programs' output flags pointing at /tmp, /tmp
// itself, and
// the home or workspace when they live under /tmp, stay what they are.
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
		// A build's product is its output too (issue 32, held-out corpus).
		"go test -o /tmp/x ./...",
		"go build -o /tmp/app ./cmd/app",
		"gcc -Wall -o /tmp/a.out main.c",
		"go test -coverprofile=/tmp/c.out ./...",
		// A git command's own output file is its output (pol5).
		"git log --output=/tmp/x",
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
		"go build -o /tmp ./cmd/app",
		"gcc -o " + ctx.Home + "/.bashrc main.c",
		"go build -o ../x ./cmd/app",
		"git log --output=/tmp",
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
