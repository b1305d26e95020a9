package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzCheck asserts the engine never panics and never allows text it could
// not parse. The seed corpus is both corpora plus odd inputs, so a plain
// `go test` runs it.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{"adversarial.txt", "everyday.txt", "agents_adversarial.txt", "agents_everyday.txt"} {
		for _, c := range readCorpus(f, name) {
			f.Add(c.cmd)
		}
	}
	for _, s := range []string{"", "\x00", "ls\x00rm", "$(", "`", "'", "\"", "<<EOF", "a=(", "${", "$((", "((", "[[",
		"echo $'\\x00'", "f(){", "case", "for", "\\", strings.Repeat("(", 500), strings.Repeat("$(", 300) + "x" + strings.Repeat(")", 300),
		"ls\r\nrm -rf /", "\xff\xfe", "echo \u202e", "cat <<'A'\n$(rm -rf /)\nA"} {
		f.Add(s)
	}
	ctx := Context{Workspace: "/nonexistent/ws", Cwd: "/nonexistent/ws", Home: "/nonexistent/home"}
	e := Default()
	f.Fuzz(func(t *testing.T, cmd string) {
		// The seeds (every corpus row) run GOMAXPROCS at a time when the
		// target runs as a test; while fuzzing this has no effect.
		t.Parallel()
		c := ctx
		c.Sandboxed = len(cmd)%2 == 0 // both judgements
		v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c})
		if v.Decision < Allow || v.Decision > Deny {
			t.Fatalf("decision %d out of range", v.Decision)
		}
		if v.Decision == Allow {
			if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), ""); err != nil {
				t.Fatalf("allowed text that does not parse: %q (%v)", cmd, err)
			}
			if strings.IndexByte(cmd, 0) >= 0 {
				t.Fatalf("allowed text holding a NUL byte: %q", cmd)
			}
			for _, p := range v.Parts {
				if p.Decision != Allow {
					t.Fatalf("allowed %q but part %q is %s", cmd, p.Text, p.Decision)
				}
			}
		}
		if v.Rule == "" && len(v.Parts) > 0 {
			t.Fatalf("no deciding rule for %q", cmd)
		}
	})
}
