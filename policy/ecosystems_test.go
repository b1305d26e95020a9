package policy

import "testing"

// TestSandboxOnlyEverydays: a loopback health check and sourcing the
// project's virtualenv are everyday inside the sandbox only: with it off,
// localhost is the person's machine and the activate script runs
// unsandboxed in the person's shell.
func TestSandboxOnlyEverydays(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	for _, l := range []string{"curl -s http://localhost:3000/health", "curl -sI http://127.0.0.1:8080/", "source .venv/bin/activate && pytest -q", ". venv/bin/activate"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
}
