package gitrest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A shared index overwritten with the same size and type (other entries,
// the trailer copied: git checks the main index's link to it by the
// trailer it reads, not by hashing the content) is named; one git only
// read (its times freshened) is not.
func TestSharedIndexOverwrittenSameSizeIsNamed(t *testing.T) {
	gd := t.TempDir()
	p := filepath.Join(gd, "sharedindex.aaaa")
	if err := os.WriteFile(p, []byte("DIRC entries of the person"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := Dirs{GitDir: gd}
	before := Snap(d, MaxBytes)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, later, later); err != nil { // git read it
		t.Fatal(err)
	}
	if lines, _ := Changes(d, before, Snap(d, MaxBytes), 50); len(lines) != 0 {
		t.Fatalf("a shared index git only read was named: %q", lines)
	}
	if err := os.WriteFile(p, []byte("DIRC entries of the coder"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(p, later, later)
	lines, _ := Changes(d, before, Snap(d, MaxBytes), 50)
	if !strings.Contains(strings.Join(lines, "\n"), "changed "+p) {
		t.Fatalf("a shared index overwritten with the same size was not named: %q", lines)
	}
}
