//go:build linux

package checkpoint

import (
	"context"
	"errors"
	"os"
	"testing"
)

// nested makes n levels of directory "d" under root, each made from the
// handle of the one above (the whole path is past PATH_MAX), with a file
// "f" in the deepest.
func nested(t *testing.T, root string, n int) {
	t.Helper()
	r, err := os.OpenRoot(root)
	must(t, err)
	for range n {
		must(t, r.Mkdir("d", 0o755))
		sub, err := r.OpenRoot("d")
		must(t, err)
		r.Close()
		r = sub
	}
	must(t, r.WriteFile("f", []byte("deep"), 0o644))
	r.Close()
}

// A record of a deep tree opens each directory from its parent: the path
// elements it opens and stats grow with the entries, not with depth² (the
// whole path from the place opened element by element for each directory
// cost 56 s at 1,000 levels and did not end at 5,000: 31-ipatk16).
func TestADeepTreeIsRecordedInWorkLinearInItsEntries(t *testing.T) {
	const depth = 2000
	root := t.TempDir()
	nested(t, root, depth)
	for _, stamp := range []bool{true, false} {
		elements := 0
		o := Options{opened: func(n int) { elements += n }}
		var m *Manifest
		var err error
		if stamp {
			m, err = Stamp(root, o)
		} else {
			var s *Store
			s, err = OpenIn(t.TempDir(), root)
			must(t, err)
			m, err = Take(s, root, o)
		}
		must(t, err)
		if len(m.Entries) != depth+1 {
			t.Fatalf("stamp %v: %d entries, want %d", stamp, len(m.Entries), depth+1)
		}
		if bound := 5 * len(m.Entries); elements > bound {
			t.Errorf("stamp %v: the walk opened or stat'ed %d path elements for %d entries (bound %d): not linear", stamp, elements, len(m.Entries), bound)
		}
		if !stamp {
			if e, _ := m.Get(m.Entries[len(m.Entries)-1].Path); e.Kind != KindFile || e.Hash == "" {
				t.Errorf("the deepest file is not recorded: %+v", e)
			}
		}
	}
}

// A record in progress stops when its context ends (a SIGTERM to sentinel
// exec): it returns the context's error at its next entry, not after the
// rest of the tree.
func TestARecordInProgressStopsWhenItsContextEnds(t *testing.T) {
	root := t.TempDir()
	nested(t, root, 200)
	s, err := OpenIn(t.TempDir(), root)
	must(t, err)
	for _, stamp := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		walked := 0
		o := Options{Ctx: ctx, walked: func(string) {
			if walked++; walked == 10 {
				cancel()
			}
		}}
		if stamp {
			_, err = Stamp(root, o)
		} else {
			_, err = Take(s, root, o)
		}
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("stamp %v: a cancelled record returned %v, want context.Canceled", stamp, err)
		}
		if walked > 10 {
			t.Errorf("stamp %v: the record walked %d entries after its context ended at the 10th", stamp, walked-10)
		}
	}
}
