package policy

import (
	"os"
	"strings"
	"testing"
)

// TestPolcorp6Misses prints the deny rows of polcorp6 that are not denied
// (sandbox on), in the classes named by POLCORP6_CLASSES (comma-separated
// prefixes; all when empty). It only reports: run it with
//
//	POLCORP6_MISSES=1 POLCORP6_CLASSES=spell/ go test -count=1 -run TestPolcorp6Misses -v ./policy/
func TestPolcorp6Misses(t *testing.T) {
	if os.Getenv("POLCORP6_MISSES") == "" {
		t.Skip("set POLCORP6_MISSES=1 to print the missed deny rows of polcorp6")
	}
	prefixes := strings.Split(os.Getenv("POLCORP6_CLASSES"), ",")
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, r := range readTSVCorpus(t, "corpus/polcorp6-1207.tsv") {
		if r.expect != "deny" {
			continue
		}
		match := false
		for _, p := range prefixes {
			if strings.HasPrefix(r.class, p) {
				match = true
			}
		}
		if !match {
			continue
		}
		v := e.Check(Query{Kind: KindShell, Command: r.cmd, Context: ctx})
		if v.Decision != Deny {
			t.Logf("%-16s %-5s %q  [%s: %s]", r.class, v.Decision, r.cmd, v.Rule, v.Reason)
		}
	}
}

// TestProbeLines prints the decision (sandbox on; off with PROBE_OFF=1) for
// each line of the file named by PROBE_FILE ("⏎" stands for a newline).
func TestProbeLines(t *testing.T) {
	name := os.Getenv("PROBE_FILE")
	if name == "" {
		t.Skip("set PROBE_FILE to a file of command lines")
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testEnv(t)
	ctx.Sandboxed = os.Getenv("PROBE_OFF") == ""
	ctx.InPlace = os.Getenv("PROBE_INPLACE") != ""
	e := Default()
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		v := e.Check(Query{Kind: KindShell, Command: strings.ReplaceAll(l, "⏎", "\n"), Context: ctx})
		t.Logf("%-5s %q  [%s: %s]", v.Decision, l, v.Rule, v.Reason)
	}
}
