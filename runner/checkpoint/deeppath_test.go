//go:build linux

package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// deepDir makes n levels of 200-byte directory names under root and
// returns the slash-separated path of the deepest, relative to root. Each
// level is made from the one above (chdir), since the whole path is over
// PATH_MAX.
func deepDir(t *testing.T, root string, n int) string {
	t.Helper()
	wd, err := os.Getwd()
	must(t, err)
	t.Cleanup(func() { _ = os.Chdir(wd) })
	must(t, os.Chdir(root))
	name := strings.Repeat("d", 200)
	var rel []string
	for range n {
		must(t, os.Mkdir(name, 0o755))
		must(t, os.Chdir(name))
		rel = append(rel, name)
	}
	must(t, os.Chdir(wd))
	return strings.Join(rel, "/")
}

// writeDeep writes name in the deep directory rel (reached by chdir).
func writeDeep(t *testing.T, root, rel, name, content string) {
	t.Helper()
	wd, err := os.Getwd()
	must(t, err)
	defer func() { must(t, os.Chdir(wd)) }()
	must(t, os.Chdir(root))
	for _, el := range strings.Split(rel, "/") {
		must(t, os.Chdir(el))
	}
	must(t, os.WriteFile(name, []byte(content), 0o644))
}

func readDeep(t *testing.T, root, rel, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	must(t, err)
	defer func() { must(t, os.Chdir(wd)) }()
	must(t, os.Chdir(root))
	for _, el := range strings.Split(rel, "/") {
		must(t, os.Chdir(el))
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// A file of the place whose path from the place is longer than PATH_MAX
// (4096 bytes): the checkpoint opened every file with one openat2 of its
// whole relative path, which fails with "file name too long", so the
// person's file was "not covered" and a coder's change to it could not be
// undone, though every directory above it can be opened one at a time
// (h/ipatk16: 3,000 levels of "d"). Now such a path is opened element by
// element.
func TestAFileDeeperThanPathMaxIsCoveredAndUndone(t *testing.T) {
	root := t.TempDir()
	rel := deepDir(t, root, 24) // 24 × 201 bytes: 4,824
	writeDeep(t, root, rel, "keep.txt", "person\n")
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	e, ok := before.Get(rel + "/keep.txt")
	if !ok || e.Skip != "" || e.Hash == "" {
		skip, _, _ := strings.Cut(e.Skip, ":")
		t.Fatalf("the deep file in the first record: present %v, skip %q…, hash %q", ok, skip, e.Hash)
	}
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", before))
	writeDeep(t, root, rel, "keep.txt", "person\nEVIL\n")
	after := take(t, s, root, Options{Prev: before})
	now := take(t, s, root, Options{Prev: after})
	if _, err := Apply(s, root, PlanUndo(before, after, now)); err != nil {
		t.Fatal(err)
	}
	if got := readDeep(t, root, rel, "keep.txt"); got != "person\n" {
		t.Errorf("the deep file after undo: %q, want the person's", got)
	}
}

// The fallback for a path longer than PATH_MAX follows no link either: a
// directory on the way swapped for a link after the walk (here to the
// very directory, moved aside, so the file reached is the one listed and
// an identity check alone would let it through) leaves the deep file
// not covered. os.Root, which the fallback used, follows a link in a
// directory element while it stays in the place (31-ipatk16).
func TestTheDeepPathFallbackFollowsNoLink(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	rel := deepDir(t, root, 24)
	writeDeep(t, root, rel, "keep.txt", "person\n")
	top, _, _ := strings.Cut(rel, "/")
	o := Options{betweenWalkAndRead: func() {
		must(t, os.Rename(filepath.Join(root, top), filepath.Join(root, "moved")))
		must(t, os.Symlink("moved", filepath.Join(root, top)))
	}}
	m := take(t, newStore(t, root), root, o)
	wantUncovered(t, m, rel+"/keep.txt")
}
