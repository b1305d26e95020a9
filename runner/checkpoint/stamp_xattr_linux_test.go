package checkpoint

import (
	"errors"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// A stamp carries a file's extended attributes as the record does: after
// sentinel mcp's points stop mid-session, the next call's window is a full
// record before and a stamp after, and a file with a user. attribute the
// call never touched read as "extended attributes: user.keep removed" (a
// false change; scope28). Between two stamps, the file a command set an
// attribute on is named (as modified: its change time moved, and a stamp
// cannot tell its bytes are the same), and no other. Seen failing without the stamp's xattrsOf: the
// untouched file was reported.
func TestAStampCarriesTheAttributesTheRecordCompares(t *testing.T) {
	root := t.TempDir()
	write(t, root, "notes.txt", "notes\n", 0o644)
	write(t, root, "other.txt", "other\n", 0o644)
	if err := unix.Lsetxattr(filepath.Join(root, "notes.txt"), "user.keep", []byte("person"), 0); err != nil {
		if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
			t.Skipf("no user extended attributes on this file system: %v", err)
		}
		t.Fatal(err)
	}
	s := newStore(t, root)
	point := take(t, s, root, Options{})
	stamp, err := Stamp(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Diff(point, stamp) {
		t.Errorf("a record and a stamp of the same place differ: %s", c.Line())
	}
	if err := unix.Lsetxattr(filepath.Join(root, "other.txt"), "user.evil", []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	later, err := Stamp(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range Diff(stamp, later) {
		got = append(got, c.Path)
	}
	if len(got) != 1 || got[0] != "other.txt" {
		t.Errorf("between two stamps: %q, want other.txt alone", got)
	}
}
