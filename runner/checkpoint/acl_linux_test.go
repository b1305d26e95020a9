package checkpoint

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// otherWritesDefault is a POSIX default ACL (version 2) whose group and
// other entries may write: every file made later in the directory is
// group- and world-writable, whatever the umask of the program making it.
func otherWritesDefault() []byte {
	b := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range [][2]uint16{{0x01, 7}, {0x04, 7}, {0x20, 7}} { // user_obj, group_obj, other
		b = binary.LittleEndian.AppendUint16(b, e[0])
		b = binary.LittleEndian.AppendUint16(b, e[1])
		b = binary.LittleEndian.AppendUint32(b, 0xffffffff)
	}
	return b
}

// A coder that sets a default ACL on the place or one of its directories
// changes no mode bit and no file, yet every file the person's tools make
// there later (a build's output, a checkout's new file) is writable by
// every user of the machine. The run's checkpoint comparison said nothing
// changed (h/ipatk12); the ACL is now part of a directory's record, and
// undo takes it off again.
func TestADefaultACLIsPartOfADirectorysRecord(t *testing.T) {
	root := t.TempDir()
	write(t, root, "build/out.o", "obj\n", 0o644)
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", before))
	for _, d := range []string{root, filepath.Join(root, "build")} {
		if err := unix.Setxattr(d, "system.posix_acl_default", otherWritesDefault(), 0); err != nil {
			if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
				t.Skipf("no POSIX ACLs on this file system: %v", err)
			}
			t.Fatal(err)
		}
	}
	started := before.Started
	before.Started = time.Now().Add(time.Hour) // its walk long after every file was written: only the ACLs tell
	if Unchanged(root, before, nil) {
		t.Error("Unchanged says the place is as recorded after default ACLs were set")
	}
	before.Started = started
	after := take(t, s, root, Options{Prev: before})
	got := map[string]string{}
	for _, c := range Diff(before, after) {
		got[c.Path] = c.Line()
	}
	for _, p := range []string{".", "build"} {
		if !strings.Contains(got[p], "default ACL") {
			t.Errorf("%s: %q; want its new default ACL told (changes: %v)", p, got[p], got)
		}
	}
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if len(plan.Conflicts)+len(plan.Cannot) > 0 {
		t.Fatalf("conflicts %v, cannot %v", plan.Conflicts, plan.Cannot)
	}
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{root, filepath.Join(root, "build")} {
		if n, err := unix.Getxattr(d, "system.posix_acl_default", make([]byte, 64)); err == nil || !errors.Is(err, unix.ENODATA) {
			t.Errorf("%s keeps a default ACL after undo (%d bytes, %v)", d, n, err)
		}
	}
}
