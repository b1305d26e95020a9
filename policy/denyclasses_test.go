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
			if c.expect == "!allow-off" && sb {
				continue // the project's own code, inside the sandbox
			}
			v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: cx})
			ok := c.ok(v.Decision) || c.expect == "!deny" && v.Decision != Deny
			if !ok {
				t.Errorf("deny_classes.txt:%d (sandbox %v) %q (%s): got %s by %s (%s), want %s", c.line, sb, c.cmd, c.why, v.Decision, v.Rule, v.Reason, c.expect)
			}
		}
	}
}

// TestParallelItemsJudged holds the deny_classes rows whose command holds
// GNU parallel's ::: (the corpus's separator): static items make commands
// judged as written (parallel.go).
func TestParallelItemsJudged(t *testing.T) {
	checkClass(t, []classCase{
		{"parallel sh -c ::: 'rm -rf ~'", "deny"},        // issue 32 brief (parallel); the item is quoted as sh -c's program
		{"parallel ::: 'rm -rf ~'", "deny"},              // GNU parallel(1): with no command each item is a command line
		{"parallel 'rm -rf {}' ::: /", "deny"},           // GNU parallel(1): replacement string in the command
		{"parallel -q rm -rf ::: \"$HOME\"", "deny"},     // class generalisation: -q quotes the command's words
		{"parallel rm -rf {//} ::: ~/x", "deny"},         // class generalisation: {//} is the item's directory
		{"parallel --sshlogin host ls ::: a", "!allow"},  // runs on other machines: not known, asks
		{"parallel echo ::: 'a; rm -rf ~'", "allow"},     // the item is quoted: echo prints it
		{"parallel -j4 go test {} ::: ./a ./b", "allow"}, // GNU parallel(1) example shape on a test run
		{"parallel gzip -k ::: a b", "allow"},            // GNU parallel(1) tutorial (gzip each file)
		{"cat list | parallel wc -l", "!allow"},          // items read at run time: asks, as xargs does
	})
}

// TestInlineEnvDumpReadOnce: a line's inline interpreter code is read for
// environment reads once per Check, however many of the dump checks (the
// statement's sink, the call, the pipeline) ask about it.
func TestInlineEnvDumpReadOnce(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	n := 0
	inlineDumpHook = func() { n++ }
	defer func() { inlineDumpHook = nil }()
	for _, line := range []string{
		`python3 -c 'import os; print(os.environ)' > k.txt`,
		`node -e 'console.log(process.env)' | tee k.txt`,
	} {
		n = 0
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: ctx}); v.Decision != Deny {
			t.Errorf("%q: got %s by %s, want deny", line, v.Decision, v.Rule)
		}
		if n != 1 {
			t.Errorf("%q: inline code read for the environment %d times in one Check, want 1", line, n)
		}
	}
}
