//go:build unix

package mcpserver

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A directory swapped for a symlink to outside after the path was checked
// (the race a hostile process in the same tree could win) cannot redirect
// the read or the write: both reach their directory one component at a
// time, never through a symlink.
func TestSwapAfterCheckStaysInside(t *testing.T) {
	t.Parallel()
	eachLayer(t, testSwapAfterCheckStaysInside)
}

func testSwapAfterCheckStaysInside(t *testing.T) {
	f := newFixture(t)
	c := mustConfig(t, f.config(""))
	_, srv := session(t, c, Options{})
	write(t, filepath.Join(f.rw, "sub", "secret.txt"), "inside\n")
	read, err := c.Resolve(f.rw+"/sub/secret.txt", AccessRead)
	if err != nil {
		t.Fatal(err)
	}
	wr, err := c.Resolve(f.rw+"/sub/planted", AccessReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	// The swap.
	if err := os.Rename(filepath.Join(f.rw, "sub"), filepath.Join(f.rw, "sub-moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(f.outside, filepath.Join(f.rw, "sub")); err != nil {
		t.Fatal(err)
	}
	if fh, _, err := srv.openRead(read); err == nil {
		fh.Close()
		t.Fatal("the read followed the swapped-in symlink outside")
	} else {
		var r *Refusal
		if !errors.As(err, &r) || r.Class != ClassPathNotAllowed {
			t.Fatalf("want a path-not-allowed refusal, got %v", err)
		}
	}
	if r, err := srv.reach(wr, AccessReadWrite); err == nil {
		srv.replaceFile(r, []byte("pwned"), 0o644)
		r.close()
		t.Fatal("the write reached through the swapped-in symlink")
	}
	if _, err := os.Stat(filepath.Join(f.outside, "planted")); err == nil {
		t.Fatal("a file was planted outside")
	}
}
