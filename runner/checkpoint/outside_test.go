//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Paths of the place that were one file with a file outside it (h/ipfix12):
// one the coder deleted (and a second name of it in the place the coder
// replaced) is linked to the outside file again, since that is still the
// same file with the same content; one the coder rewrote through the link
// (so the outside file holds the run's content) and one whose outside
// file the person deleted come back as copies, and undo says why of each.
func TestUndoLinksAFileOutsideThePlaceAgain(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	for _, f := range []string{"shared.conf", "other.conf", "gone.conf"} {
		write(t, outside, f, f+" before the run\n", 0o640)
	}
	link := func(out, in string) {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(root, in)), 0o755))
		must(t, os.Link(filepath.Join(outside, out), filepath.Join(root, in)))
	}
	link("shared.conf", "kept.conf")
	link("shared.conf", "sub/kept-too.conf")
	link("other.conf", "changed.conf")
	link("gone.conf", "gone.conf")
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	want := treeHash(t, root)

	must(t, os.Remove(filepath.Join(root, "kept.conf")))
	must(t, os.Remove(filepath.Join(root, "sub/kept-too.conf")))
	write(t, root, "sub/kept-too.conf", "the coder's\n", 0o640)
	f, err := os.OpenFile(filepath.Join(root, "changed.conf"), os.O_WRONLY|os.O_APPEND, 0)
	must(t, err)
	_, err = f.WriteString("the coder's line\n")
	must(t, err)
	must(t, f.Close())
	must(t, os.Remove(filepath.Join(root, "gone.conf")))
	after := take(t, s, root, Options{Prev: before})
	must(t, os.Remove(filepath.Join(outside, "gone.conf"))) // the person, since

	applied, err := Apply(s, root, PlanUndo(before, after, after))
	if err != nil {
		t.Fatal(err)
	}
	if got := treeHash(t, root); got != want {
		t.Fatalf("undo did not put the place back:\nwant\n%s\ngot\n%s", want, got)
	}
	ino := func(p string) uint64 {
		fi, err := os.Stat(p)
		must(t, err)
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	for _, p := range []string{"kept.conf", "sub/kept-too.conf"} {
		if ino(filepath.Join(root, p)) != ino(filepath.Join(outside, "shared.conf")) {
			t.Errorf("%s is not one file with the outside shared.conf again\n%q", p, applied.Done)
		}
	}
	if ino(filepath.Join(root, "changed.conf")) == ino(filepath.Join(outside, "other.conf")) {
		t.Errorf("changed.conf was linked to an outside file that holds the run's content")
	}
	if !strings.Contains(strings.Join(applied.Done, "\n"), "hard-link kept.conf to the file outside the project") {
		t.Errorf("undo does not say it linked kept.conf again: %q", applied.Done)
	}
	copies := strings.Join(applied.Copies, "\n")
	for p, why := range map[string]string{"changed.conf": "holds other content now", "gone.conf": "is gone"} {
		if !strings.Contains(copies, p+": was one file with a file outside the project, which "+why) {
			t.Errorf("undo does not say %s came back as a copy because the outside file %s: %q", p, why, applied.Copies)
		}
	}
	if strings.Contains(copies, "kept.conf") {
		t.Errorf("kept.conf, linked again, is also named a copy: %q", applied.Copies)
	}
}
