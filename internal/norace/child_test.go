package norace

import (
	"runtime/debug"
	"slices"
	"testing"
)

// The child's first test paces its collector; a person's GOGC or
// GOMEMLIMIT wins. Not parallel: it sets and restores the process's GC.
func TestTheChildPacesItsCollector(t *testing.T) {
	gcPercent := func() int { p := debug.SetGCPercent(100); debug.SetGCPercent(p); return p }
	percent, limit := gcPercent(), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) })
	for _, tc := range []struct {
		name, gogc string
		want       int
	}{{"unset", "", childGCPercent}, {"the person's GOGC", "50", 100}} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(limit)
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv("SENTINEL_NORACE_TEST_CHILD", "1")
			c := &Child{What: "a test", Env: "SENTINEL_NORACE_TEST_CHILD"}
			if c.Ran(t) {
				t.Fatal("Ran in the child said the test ran elsewhere")
			}
			if got := gcPercent(); got != tc.want {
				t.Errorf("GC percent in the child: %d, want %d", got, tc.want)
			}
			wantLimit := limit
			if tc.gogc == "" {
				wantLimit = childMemoryLimit
			}
			if got := debug.SetMemoryLimit(-1); got != wantLimit {
				t.Errorf("memory limit in the child: %d, want %d", got, wantLimit)
			}
		})
	}
}

// The child does not vet again what the parent's go test vetted.
func TestTheChildIsNotVettedTwice(t *testing.T) {
	t.Parallel()
	args := (&Child{Tests: []string{"TestA", "TestB"}}).goTestArgs(t)
	if !slices.Contains(args, "-vet=off") {
		t.Errorf("the child's go test %q vets the package again", args)
	}
	if i := slices.Index(args, "-run"); i < 0 || args[i+1] != "^(TestA|TestB)$" || args[len(args)-1] != "." {
		t.Errorf("the child's go test %q does not run just its tests in this package", args)
	}
}
