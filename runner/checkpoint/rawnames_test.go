//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"testing"
)

// A name is bytes, not text: a file or link whose name (or link target) is
// not UTF-8 comes back under that very name after the manifest has been
// saved and read again (JSON would turn each bad byte into U+FFFD, and two
// such names into one), and a directory so named is walked like any other
// (io/fs refuses to list it: what it holds went unrecorded).
func TestUndoKeepsNamesThatAreNotUTF8(t *testing.T) {
	root := t.TempDir()
	write(t, root, "odd\xff/a\xfe.txt", "one\n", 0o644)
	write(t, root, "odd\xff/a\xfd.txt", "two\n", 0o600)
	write(t, root, "plain.txt", "plain\n", 0o644)
	must(t, os.Symlink("to\xfe", filepath.Join(root, "link\xff")))
	want := treeHash(t, root)
	s := newStore(t, root)
	first := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", first))
	before, err := s.Manifest("20260101-000000-aaaaaa", "before")
	must(t, err)
	for _, p := range []string{"odd\xff", "odd\xff/a\xfe.txt", "odd\xff/a\xfd.txt", "link\xff"} {
		if _, ok := before.Get(p); !ok {
			t.Errorf("%q is not in the saved manifest", p)
		}
	}
	if e, ok := before.Get("link\xff"); ok && e.Target != "to\xfe" {
		t.Errorf("the link's target came back as %q", e.Target)
	}
	must(t, os.RemoveAll(filepath.Join(root, "odd\xff")))
	must(t, os.Remove(filepath.Join(root, "link\xff")))
	now := take(t, s, root, Options{Prev: before})
	plan := PlanUndo(before, nil, now)
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if got := treeHash(t, root); got != want {
		t.Fatalf("not restored under the same names:\nwant\n%q\ngot\n%q", want, got)
	}
}

// The place's own directory is part of it: a coder that makes it
// world-writable (another user could then plant files in the project) is
// reported, and undo puts its mode back.
func TestUndoPutsBackThePlacesOwnMode(t *testing.T) {
	root := t.TempDir()
	must(t, os.Chmod(root, 0o750))
	write(t, root, "a.txt", "a\n", 0o644)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-bbbbbb", "before", before))
	before, err := s.Manifest("20260101-000000-bbbbbb", "before")
	must(t, err)
	must(t, os.Chmod(root, 0o777))
	if Unchanged(root, before, nil) {
		t.Error("Unchanged does not see the place's own mode change")
	}
	after := take(t, s, root, Options{Prev: before})
	var lines []string
	for _, c := range Diff(before, after) {
		lines = append(lines, c.Line())
	}
	if !contains(lines, "mode 0750→0777 .") {
		t.Errorf("the place's own mode change is not reported: %q", lines)
	}
	plan := PlanUndo(before, after, after)
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(root); st.Mode().Perm() != 0o750 {
		t.Fatalf("undo left the place's mode at %04o", st.Mode().Perm())
	}
}
