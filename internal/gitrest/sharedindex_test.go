package gitrest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A split index's shared part (sharedindex.*) is compared by type: one
// the command made or removed is named (an index linking to a removed one
// can no longer be read), one git only read (it freshens the times) is
// not.
func TestSharedIndexFilesAreCompared(t *testing.T) {
	gd := t.TempDir()
	kept, gone := filepath.Join(gd, "sharedindex.aaaa"), filepath.Join(gd, "sharedindex.bbbb")
	for _, p := range []string{kept, gone} {
		if err := os.WriteFile(p, []byte("DIRC"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Dirs{GitDir: gd}
	before := Snap(d, MaxBytes)
	later := time.Now().Add(time.Hour)
	os.Chtimes(kept, later, later) // git read it
	if lines, _ := Changes(d, before, Snap(d, MaxBytes), 50); len(lines) != 0 {
		t.Fatalf("a shared index git only read was named: %q", lines)
	}
	os.Remove(gone)
	os.WriteFile(filepath.Join(gd, "sharedindex.cccc"), []byte("DIRC"), 0o644)
	lines, _ := Changes(d, before, Snap(d, MaxBytes), 50)
	all := strings.Join(lines, "\n")
	for _, w := range []string{"gone " + gone + " — the shared part of a split index", "new " + filepath.Join(gd, "sharedindex.cccc")} {
		if !strings.Contains(all, w) {
			t.Errorf("not named: %q\n%s", w, all)
		}
	}
}
