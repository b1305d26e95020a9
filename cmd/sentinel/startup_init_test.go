package main

import (
	"regexp"
	"strconv"
	"testing"
)

// TestMainInitAllocatesLittle: package main's initialisation runs on every
// start — every sandboxed command and (without sentinel-helper) every hook —
// so it builds no command tree (newRoot builds what the invocation runs).
// Go's inittrace reports it as "init main @… N allocs"; no line at all is
// an initialisation with nothing to run.
func TestMainInitAllocatesLittle(t *testing.T) {
	r := sentinel(t, t.TempDir(), []string{"GODEBUG=inittrace=1"}, "--version")
	if r.code != 0 {
		t.Fatalf("sentinel --version: exit %d\n%s", r.code, r.stderr)
	}
	allocs := 0
	if m := regexp.MustCompile(`(?m)^init main @.* (\d+) allocs$`).FindStringSubmatch(r.stderr); m != nil {
		allocs, _ = strconv.Atoi(m[1])
	} else if !regexp.MustCompile(`(?m)^init runtime @`).MatchString(r.stderr) {
		t.Fatalf("GODEBUG=inittrace=1 printed no init trace:\n%s", r.stderr)
	}
	if allocs >= 20 {
		t.Errorf("package main's init allocates %d times (want under 20): build commands in newRoot, not in init or package-level vars", allocs)
	}
}
