package policy

import "testing"

// TestDenyClasses2Corpus judges testdata/deny_classes2.txt, the clearly
// destructive or exfiltrating classes polcorp1206 and review1207 still
// found asked after h/pol, several spellings each, with the sandbox on and
// off: every line gets what it expects.
func TestDenyClasses2Corpus(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	lines := readCorpus(t, "deny_classes2.txt")
	if len(lines) < 5 {
		t.Fatalf("deny_classes2.txt has %d lines, want at least 5", len(lines))
	}
	for _, c := range lines {
		for _, sb := range []bool{true, false} {
			cx := ctx
			cx.Sandboxed = sb
			if c.expect == "!allow-off" && sb {
				continue // the project's own code, inside the sandbox
			}
			if c.expect == "allow" && !sb && c.why != "" && len(c.why) > 8 && c.why[:8] == "sandbox:" {
				continue // allowed only with the sandbox on
			}
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			ok := c.ok(v.Decision) || c.expect == "!deny" && v.Decision != Deny
			if !ok {
				t.Errorf("deny_classes2.txt:%d (sandbox %v) %q (%s): got %s by %s (%s), want %s", c.line, sb, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
			}
		}
	}
}
