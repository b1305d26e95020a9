package hardgit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Known replaces the scan: a scan's answer keeps every driver off for the
// commands that share it, and Run trusts it as given (the caller vouches
// that it is this git dir's: an empty one lets the repository's filter run).
func TestKnownOverridesReplaceTheScan(t *testing.T) {
	dir, marker := hostileRepo(t)
	ctx := context.Background()
	over, err := Overrides(ctx, dir, nil)
	if err != nil || len(over) == 0 {
		t.Fatalf("Overrides = %v, %v; want the drivers' overrides", over, err)
	}
	for i, name := range []string{"g1.txt", "g2.txt"} {
		write(t, filepath.Join(dir, name), "new\n")
		if _, err := (Git{Dir: dir, Known: &over}).Run(ctx, "add", "--", name); err != nil {
			t.Fatalf("add %d: %v", i, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("a driver ran under the kept overrides (add %d)", i)
		}
	}
	write(t, filepath.Join(dir, "g3.txt"), "new\n")
	none := []string{}
	_, _ = (Git{Dir: dir, Known: &none}).Run(ctx, "add", "--", "g3.txt")
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("with an empty Known, Run scanned again: Known is not what Run used")
	}
}
