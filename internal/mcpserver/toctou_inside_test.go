//go:build unix

package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// os.Root keeps every operation inside the directory it holds but follows
// a symlink whose target stays inside. The file tools never pass through
// a link at all, on either layer: a directory or file swapped for a link
// to a sibling after the path was checked is refused, not followed.
func TestSwapToALinkInsideIsRefused(t *testing.T) {
	t.Parallel()
	eachLayer(t, testSwapToALinkInsideIsRefused)
}

func testSwapToALinkInsideIsRefused(t *testing.T) {
	f := newFixture(t)
	c := mustConfig(t, f.config(""))
	_, srv := session(t, c, Options{})
	write(t, filepath.Join(f.rw, "sub", "a.txt"), "a\n")
	write(t, filepath.Join(f.rw, "other", "a.txt"), "other\n")
	write(t, filepath.Join(f.rw, "plain.txt"), "plain\n")
	write(t, filepath.Join(f.rw, "target.txt"), "target\n")
	wantLinked := func(what string, err error) {
		t.Helper()
		var r *Refusal
		if err == nil {
			t.Fatalf("%s: followed the swapped-in link", what)
		}
		if !errors.As(err, &r) || r.Class != ClassPathNotAllowed {
			t.Fatalf("%s: want a path-not-allowed refusal, got %v", what, err)
		}
	}

	// A directory on the way swapped for a link to a sibling directory.
	wr, err := c.Resolve(f.rw+"/sub/planted", AccessReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(f.rw, "sub"), filepath.Join(f.rw, "sub-moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other", filepath.Join(f.rw, "sub")); err != nil {
		t.Fatal(err)
	}
	r, err := srv.reach(wr, AccessReadWrite)
	if err == nil {
		r.close()
	}
	wantLinked("the walk through sub", err)

	// The entry itself swapped for a link to a sibling file after it was
	// reached (chmod's open, edit's read).
	pl, err := c.Resolve(f.rw+"/plain.txt", AccessReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	r, err = srv.reach(pl, AccessReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	if err := os.Remove(filepath.Join(f.rw, "plain.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.txt", filepath.Join(f.rw, "plain.txt")); err != nil {
		t.Fatal(err)
	}
	fh, err := r.openEntry(os.O_RDONLY)
	if err == nil {
		fh.Close()
	}
	wantLinked("the open of plain.txt", err)
	_, _, err = srv.openRead(pl)
	wantLinked("the read of plain.txt", err)
}
