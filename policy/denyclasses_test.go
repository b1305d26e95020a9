package policy

import "testing"

// TestDenyClassesCorpus judges testdata/deny_classes.txt, the clearly
// destructive or exfiltrating classes review1207 found asked instead of
// denied, several spellings each, with the sandbox on and off: every line
// gets what it expects.
func TestDenyClassesCorpus(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "deny_classes.txt")
	if len(lines) < 20 {
		t.Fatalf("deny_classes.txt has %d lines, want at least 20", len(lines))
	}
	for _, c := range lines {
		for _, sb := range []bool{true, false} {
			cx := ctx
			cx.Sandboxed = sb
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			ok := c.ok(v.Decision) || c.expect == "!deny" && v.Decision != Deny
			if !ok {
				t.Errorf("deny_classes.txt:%d (sandbox %v) %q (%s): got %s by %s (%s), want %s", c.line, sb, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
			}
		}
	}
}
