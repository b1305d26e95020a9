package gitdir

import (
	"errors"
	"path/filepath"
	"testing"
)

// Reading a stack stops at its bounds, with an error that says so: the
// tables read whole and the log blocks inflated (a coder's stack of
// compressible log blocks would otherwise hold the end of the run and
// its memory). Within the bounds the same stack reads.
func TestReftableStackStopsAtItsBounds(t *testing.T) {
	dir := filepath.Join("testdata", "reftable", "before", "reftable")
	if _, logs, err := reftableStack(dir, newTableBudget(), "refs/stash"); err != nil || logs["refs/stash"] == 0 {
		t.Fatalf("within the bounds: %v, stash entries %d (the fixture must have log blocks)", err, logs["refs/stash"])
	}
	for _, tc := range []struct {
		name string
		bud  tableBudget
	}{
		{"inflated", tableBudget{read: maxStackBytes, inflate: 16}},
		{"read", tableBudget{read: 700, inflate: maxInflateBytes}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bud := tc.bud
			if _, _, err := reftableStack(dir, &bud, "refs/stash"); !errors.Is(err, errTooBig) {
				t.Fatalf("a stack over its %s bound: %v", tc.name, err)
			}
		})
	}
}
