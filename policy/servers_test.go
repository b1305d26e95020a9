package policy

import "testing"

// TestLoopbackServerInsideTheSandbox: python's http.server bound to
// loopback serves only the sandbox's own network namespace; bound to every
// interface, with an unknown argument, or with the sandbox off it asks.
func TestLoopbackServerInsideTheSandbox(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	for _, l := range []string{
		"python -m http.server 8888 --bind 127.0.0.1",
		"python3 -m http.server -b ::1 8000 -d build",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	for _, l := range []string{
		"python -m http.server 8000",
		"python -m http.server 8000 --bind 0.0.0.0",
		"python -m http.server --bind 127.0.0.1 -d " + ctx.Home,
		"python -m http.server --bind 127.0.0.1 --cgi",
		"python -m http.server --bind $HOST",
	} {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
}
