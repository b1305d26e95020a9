//go:build unix

package placeflags

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// A file that runs later given to another user (root's chown in place:
// 31-ipatk17m) is flagged DANGEROUS, with why it runs later, as a change
// of its content is; one given to root is not.
func TestOwnerFlagsARunLaterFileGivenAway(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give files away")
	}
	root := t.TempDir()
	for _, n := range []string{"Makefile", "notes.txt", "mine.txt"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(filepath.Join(root, n), 4321, 4321); err != nil {
			t.Fatal(err)
		}
	}
	s, err := checkpoint.OpenIn(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	before, err := checkpoint.Take(s, root, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for n, uid := range map[string]int{"Makefile": 4322, "notes.txt": 4322, "mine.txt": 0} {
		if err := os.Chown(filepath.Join(root, n), uid, 4321); err != nil {
			t.Fatal(err)
		}
	}
	after, err := checkpoint.Take(s, root, checkpoint.Options{Prev: before})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range checkpoint.Diff(before, after) {
		got[c.Path] = Owner(c, c.Path)
	}
	if w := got["Makefile"]; !strings.HasPrefix(w, Dangerous+"given to another user") || !strings.Contains(w, "runs code later") || !strings.Contains(w, "chown -h 4321:4321 Makefile") {
		t.Errorf("Makefile: %q", w)
	}
	if w := got["notes.txt"]; !strings.HasPrefix(w, Dangerous) || strings.Contains(w, "runs code later") {
		t.Errorf("notes.txt: %q", w)
	}
	if w, ok := got["mine.txt"]; !ok || w != "" {
		t.Errorf("mine.txt (given to root): %q, seen %v", w, ok)
	}
}
