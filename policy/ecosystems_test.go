package policy

import "testing"

// TestSandboxOnlyEverydays: a loopback health check and sourcing the
// project's virtualenv were everyday inside the sandbox only. They are
// allowed with it off too (issue 32: everyday work with the sandbox on and
// off): the activate script is an auto entry of runlater.toml, which the
// coder may not write without the person, and a read of the person's
// loopback is allowed as it is in place, while data sent to it and a read
// of a local control plane's port ask (TestSandboxOffClasses).
func TestSandboxOnlyEverydays(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	for _, l := range []string{"curl -s http://localhost:3000/health", "curl -sI http://127.0.0.1:8080/", "source .venv/bin/activate && pytest -q", ". venv/bin/activate"} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision != Allow {
			t.Errorf("sandbox off: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
}
