package policy

import "testing"

// onOff is a shell line and what the policy must decide for it with the
// sandbox on and off.
type onOff struct {
	cmd     string
	on, off Decision
}

// checkOnOff checks every row with the sandbox on and off, naming the rule
// and reason of each wrong decision.
func checkOnOff(t *testing.T, rows []onOff) {
	t.Helper()
	checkOnOffIn(t, testEnv(t), rows)
}

// checkOnOffIn is checkOnOff in a workspace the test prepared (ctx).
func checkOnOffIn(t *testing.T, ctx Context, rows []onOff) {
	t.Helper()
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, c := range rows {
		for _, m := range []struct {
			cx   Context
			want Decision
		}{{on, c.on}, {off, c.off}} {
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: m.cx})
			if v.Decision != m.want {
				t.Errorf("%q (sandbox %v): %s by %s (%s), want %s", c.cmd, m.cx.Sandboxed, v.Decision, v.Rule, v.Reason, m.want)
			}
		}
	}
}
