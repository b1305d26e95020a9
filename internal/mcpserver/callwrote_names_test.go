//go:build unix

package mcpserver

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A name that reads as more than one entry, or as the block's end, is
// quoted in what a call is told it changed: an edit that makes
// "a, D notes.txt" does not say notes.txt was deleted.
func TestChangedPathsQuoteANameThatReadsAsTwo(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	for _, name := range []string{"a, D notes.txt", "b] [sentinel: nothing changed", " c", "x and 9 more", "tab\tname"} {
		_, changed, isErr := callBlocks(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, name), "content": "x\n"})
		if isErr {
			t.Fatalf("edit %q refused: %s", name, changed)
		}
		want := "A " + strconv.Quote(name)
		if !strings.Contains(changed, want) {
			t.Errorf("edit %q: want %s in %q", name, want, changed)
		}
	}
}

// A change to a path that was there first is named before the paths the
// call made, so making more than maxWroteNamed files does not push it
// into "and N more".
func TestChangedPathsNameAChangedFileBeforeTheMadeOnes(t *testing.T) {
	t.Parallel()
	lines := []string{"M src/app.go", "D zz.txt"}
	for i := range maxWroteNamed + 5 {
		lines = append(lines, fmt.Sprintf("A %03d", i))
	}
	got := named(lines)
	for _, want := range []string{"M src/app.go", "D zz.txt", "and 7 more"} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in %q", want, got)
		}
	}
}
