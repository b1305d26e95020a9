package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShebangOffCorpus measures the everyday rows of polcorp6–9 with the
// sandbox off in testEnv's workspace (as the TSV harness, which holds none
// of the files the rows run) and in one that holds the workspace scripts
// and programs the rows run directly: ./test.sh and ./configure with a
// #!/bin/sh line (shebangoff.go), and the build's programs as binaries,
// which keep asking off. It fails when the files let an ask or deny row
// through that the bare workspace asks.
// Run: go test -count=1 -run TestShebangOffCorpus -v ./policy/
func TestShebangOffCorpus(t *testing.T) {
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	bare, held := testEnv(t), testEnv(t)
	for f, text := range map[string]string{"test.sh": "#!/bin/sh\n", "configure": "#!/bin/sh\n",
		"build/unit_tests": "\x7fELF\n", "build/tests/unit_tests": "\x7fELF\n", "build/test_list": "\x7fELF\n", "build/app": "\x7fELF\n"} {
		p := filepath.Join(held.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := Default()
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-20s %6s %9s %9s\n", "corpus", "rows", "bare", "scripts")
	for _, name := range []string{"polcorp6-1207.tsv", "polcorp7-1208.tsv", "polcorp8-1209.tsv", "polcorp9-1207.tsv"} {
		every, inBare, inHeld := 0, 0, 0
		for _, r := range readTSVCorpus(t, "corpus/"+name) {
			okBare := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: bare}).Decision == Allow
			v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: held})
			okHeld := v.Decision == Allow
			if r.expect != "allow" {
				if okHeld && !okBare {
					t.Errorf("%s %q (%s) allowed by %s (%s) with the scripts held, asked without", name, r.cmd, r.expect, v.Rule, v.Reason)
				}
				continue
			}
			every++
			if okBare {
				inBare++
			}
			if okHeld {
				inHeld++
			}
		}
		fmt.Fprintf(&b, "%-20s %6d %8.1f%% %8.1f%%\n", name, every, pct(inBare, every), pct(inHeld, every))
	}
	t.Log(b.String())
}
