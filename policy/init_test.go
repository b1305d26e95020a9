package policy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPolicyInitDoesNoWork: every start of sentinel (each sandboxed
// command, each hook) links this package, so its tables are built on first
// use (lazy.go), not when the process starts. A program that only links the
// package must report no allocation for it under GODEBUG=inittrace=1 (Go
// prints no line at all for a package with nothing to initialize).
func TestPolicyInitDoesNoWork(t *testing.T) {
	t.Parallel() // see heavy_parallel_test.go
	if testing.Short() {
		t.Skip("builds a program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the probe with")
	}
	probe := filepath.Join(t.TempDir(), "initprobe")
	if out, err := exec.Command(goBin, "build", "-o", probe, "./testdata/initprobe").CombinedOutput(); err != nil {
		t.Fatalf("building the probe: %v\n%s", err, out)
	}
	cmd := exec.Command(probe)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running the probe: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "init runtime @") {
		t.Fatalf("GODEBUG=inittrace=1 printed no trace:\n%s", out)
	}
	const prefix = "init github.com/sentinelhq/sentinel/policy @"
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, prefix) {
			continue
		}
		t.Log(line)
		if !strings.HasSuffix(line, " 0 allocs") {
			t.Errorf("the policy package allocates when a process starts: %q; build its tables on first use (lazy.go)", line)
		}
	}
	// What the first decision pays instead, for the log (not asserted: the
	// machine is shared).
	ctx := testEnv(t)
	timing, err := exec.Command(probe, "-check", ctx.Workspace, ctx.Home).CombinedOutput()
	if err != nil {
		t.Fatalf("running the probe's check: %v\n%s", err, timing)
	}
	t.Logf("%s", bytes.TrimSpace(timing))
}
