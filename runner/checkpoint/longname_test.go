//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A name near the 255-byte bound: undo wrote its copy under
// ".<name>.sentinel-undo-<n>", over the bound, so a coder that changed or
// removed such a file (or one of the person's) left it so: "file name too
// long" (h/ipatk14). Unshare, before the coder starts, failed the same way
// on such a file hard-linked outside the place, and stopped the run.
func TestUndoPutsBackAFileWithALongName(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("n", 250)
	write(t, root, "build/"+long, "person\n", 0o644)
	write(t, root, "build/d/"+long, "x\n", 0o644)
	write(t, root, "shared/"+long, "shared\n", 0o644)
	outside := filepath.Join(t.TempDir(), "o")
	must(t, os.Link(filepath.Join(root, "shared", long), outside))
	if done, err := Unshare(root, []string{"shared/" + long}); err != nil || len(done) != 1 {
		t.Errorf("unshare a long name: %d done, %v", len(done), err != nil)
	}
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", before))
	must(t, os.WriteFile(filepath.Join(root, "build", long), []byte("coder\n"), 0o644))
	must(t, os.Remove(filepath.Join(root, "build", "d", long)))
	after := take(t, s, root, Options{Prev: before})
	now := take(t, s, root, Options{Prev: after})
	if _, err := Apply(s, root, PlanUndo(before, after, now)); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{"build/" + long: "person\n", "build/d/" + long: "x\n"} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err != nil || string(b) != want {
			t.Errorf("%s after undo: %q %v", p[:8], b, err)
		}
	}
}
