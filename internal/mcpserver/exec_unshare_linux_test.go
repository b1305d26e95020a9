package mcpserver

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// linkWalk gives the answer the WalkDir walk gives, on a place with every
// case the walk tells apart: a file linked outside, two names inside, a
// file linked into another rw path, a link (not followed), a .git and a
// hidden directory (not walked), an unlistable one, nested and repeated
// rw paths in either order, and a file linked outside deep down.
func TestLinkWalkFindsWhatTheWalkFinds(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	a, b, out := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "out")
	inner := filepath.Join(a, "inner")
	for _, d := range []string{out, filepath.Join(a, "deep", "er"), filepath.Join(a, ".git"), filepath.Join(a, "hidden"), filepath.Join(a, "locked"), inner, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) string { write(t, p, p); return p }
	link := func(from, to string) {
		if err := os.Link(from, to); err != nil {
			t.Fatal(err)
		}
	}
	link(file(filepath.Join(out, "m")), filepath.Join(a, "Makefile"))                    // shared outside
	link(file(filepath.Join(a, "n1")), filepath.Join(a, "deep", "n2"))                   // two names inside
	link(file(filepath.Join(a, "deep", "er", "x")), filepath.Join(out, "x.bak"))         // shared outside, deep
	link(file(filepath.Join(a, "c")), filepath.Join(b, "c"))                             // into another rw path
	link(file(filepath.Join(a, ".git", "config")), filepath.Join(out, "config"))         // in .git: not walked
	link(file(filepath.Join(a, "hidden", "h")), filepath.Join(out, "h"))                 // hidden: not walked
	link(file(filepath.Join(inner, "i")), filepath.Join(out, "i"))                       // under a nested rw path
	link(file(filepath.Join(a, "locked", "l")), filepath.Join(out, "l"))                 // unlistable
	if err := os.Symlink(filepath.Join(out, "m"), filepath.Join(a, "sym")); err != nil { // a link: not followed
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(a, "symdir")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		if err := os.Chmod(filepath.Join(a, "locked"), 0o311); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(filepath.Join(a, "locked"), 0o755) })
	}
	skip := []string{filepath.Join(a, "hidden")}
	for _, roots := range [][]string{{a, b}, {b, a}, {a}, {inner, a, b}, {a, inner, b}, {a, a}} {
		want, err := sharedOutsideRootsWalk(roots, skip)
		if err != nil {
			t.Fatal(err)
		}
		got, err := linkWalk(roots, skip)
		if err != nil {
			t.Fatal(err)
		}
		for _, rels := range want {
			slices.Sort(rels)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("roots %v: linkWalk found %v, the walk %v", roots, got, want)
		}
		if len(want[a]) == 0 {
			t.Errorf("roots %v: the walk found nothing under %s: %v", roots, a, want)
		}
	}
	if _, err := linkWalk([]string{filepath.Join(base, "missing")}, nil); err == nil {
		t.Errorf("a missing rw path is no error")
	}
}
