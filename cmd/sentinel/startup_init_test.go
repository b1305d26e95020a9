package main

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// TestMainInitAllocatesLittle: package main's initialisation runs on every
// start — every sandboxed command and (without sentinel-helper) every hook —
// so it builds no command tree (newRoot builds what the invocation runs).
// Go's inittrace reports it as "init main @… N allocs"; no line at all is
// an initialisation with nothing to run.
func TestMainInitAllocatesLittle(t *testing.T) {
	r := e2etest.Sentinel(t, t.TempDir(), []string{"GODEBUG=inittrace=1"}, "--version")
	if r.Code != 0 {
		t.Fatalf("sentinel --version: exit %d\n%s", r.Code, r.Stderr)
	}
	allocs := 0
	if m := regexp.MustCompile(`(?m)^init main @.* (\d+) allocs$`).FindStringSubmatch(r.Stderr); m != nil {
		allocs, _ = strconv.Atoi(m[1])
	} else if !regexp.MustCompile(`(?m)^init runtime @`).MatchString(r.Stderr) {
		t.Fatalf("GODEBUG=inittrace=1 printed no init trace:\n%s", r.Stderr)
	}
	if allocs >= 20 {
		t.Errorf("package main's init allocates %d times (want under 20): build commands in newRoot, not in init or package-level vars", allocs)
	}
}
