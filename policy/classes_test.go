package policy

import (
	"testing"
)

// classCase is one line of a bypass class with the decision it must get
// with the sandbox on and off ("!allow": ask or deny; "!deny": allow or ask).
type classCase struct {
	line, want string
}

// checkClass judges every case with the sandbox on and off.
func checkClass(t *testing.T, cases []classCase) {
	t.Helper()
	ctx := testEnv(t)
	e := Default()
	for _, c := range cases {
		for _, sb := range []bool{true, false} {
			cx := ctx
			cx.Sandboxed = sb
			v := e.Check(Query{Kind: KindShell, Command: c.line, Context: cx})
			ok := v.Decision.String() == c.want || (c.want == "!allow" && v.Decision != Allow) || (c.want == "!deny" && v.Decision != Deny)
			if !ok {
				t.Errorf("(sandbox %v) %q: got %s by %s (%s), want %s", sb, c.line, v.Decision, v.Rule, v.Reason, c.want)
			}
		}
	}
}

// TestBypassClassesCorpus judges testdata/bypass_classes.txt, the unsafe
// allows of issue 32 by class with the public reports of the same shapes,
// with the sandbox on and off: every line gets what it expects.
func TestBypassClassesCorpus(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "bypass_classes.txt")
	if len(lines) < 60 {
		t.Fatalf("bypass_classes.txt has %d lines, want at least 60", len(lines))
	}
	for _, c := range lines {
		for _, sb := range []bool{true, false} {
			cx := ctx
			cx.Sandboxed = sb
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			if c.expect == "!allow-off" && sb {
				continue // allowed or not inside the sandbox; never without it
			}
			if !c.ok(v.Decision) {
				t.Errorf("bypass_classes.txt:%d (sandbox %v) %q (%s): got %s by %s (%s), want %s", c.line, sb, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
			}
		}
	}
}
