package checkpoint

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A coder in the sandbox owns the place's files as the person does, so it
// may set, change and remove their user.* extended attributes; none of
// that touches a byte or a mode bit. The run's end report said "no files
// changed" and `sentinel undo` said "nothing to undo", the attributes left
// as the coder set them (h/ipatk14). They are now part of a file's and a
// directory's record: told at the end, put back by undo (on a rewritten
// file and on a directory), and Unchanged sees a directory's.
func TestExtendedAttributesArePartOfTheRecord(t *testing.T) {
	root := t.TempDir()
	write(t, root, "Makefile", "all:\n", 0o644)
	write(t, root, "notes.txt", "notes\n", 0o644)
	write(t, root, "build/out.o", "obj\n", 0o644)
	set := func(p, name, v string) {
		t.Helper()
		if err := unix.Lsetxattr(filepath.Join(root, p), name, []byte(v), 0); err != nil {
			if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) {
				t.Skipf("no user extended attributes on this file system: %v", err)
			}
			t.Fatal(err)
		}
	}
	set("notes.txt", "user.keep", "person")
	set("build/out.o", "user.gone", "person")
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", before))

	set("Makefile", "user.evil", "x")
	set("notes.txt", "user.keep", "coder")
	if err := unix.Lremovexattr(filepath.Join(root, "build/out.o"), "user.gone"); err != nil {
		t.Fatal(err)
	}
	set("build", "user.dir", "1")
	started := before.Started
	before.Started = time.Now().Add(time.Hour)
	if Unchanged(root, before, nil) {
		t.Error("Unchanged says the place is as recorded after a directory's attribute was set")
	}
	before.Started = started
	after := take(t, s, root, Options{Prev: before})
	got := map[string]string{}
	for _, c := range Diff(before, after) {
		got[c.Path] = c.Line()
	}
	for p, want := range map[string]string{
		"Makefile":    "xattr Makefile (extended attributes: user.evil added)",
		"notes.txt":   "xattr notes.txt (extended attributes: user.keep changed)",
		"build/out.o": "xattr build/out.o (extended attributes: user.gone removed)",
		"build":       "xattr build (extended attributes: user.dir added)",
	} {
		if got[p] != want {
			t.Errorf("%s: %q, want %q", p, got[p], want)
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
	for p, want := range map[string]string{"Makefile": "", "notes.txt": "user.keep=" + hexOf("person"), "build/out.o": "user.gone=" + hexOf("person"), "build": ""} {
		if x := xattrsOf(filepath.Join(root, p)); x != want {
			t.Errorf("%s after undo: %q, want %q", p, x, want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "notes.txt")); err != nil || string(b) != "notes\n" {
		t.Errorf("notes.txt after undo: %q %v", b, err)
	}
}

func hexOf(s string) string { return hex.EncodeToString([]byte(s)) }

// A rewrite drops a file's capabilities (the kernel clears
// security.capability on a write): undo of a run that appended to the
// person's setcap'ed tool put its bytes back without them (h/ipatk14).
func TestUndoPutsBackAFilesCapabilities(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("setting file capabilities needs root")
	}
	root := t.TempDir()
	write(t, root, "build/tool", "#!/bin/true\n", 0o755)
	tool := filepath.Join(root, "build/tool")
	// VFS_CAP_REVISION_2 with the effective flag; permitted: cap_net_raw (13).
	caps := binary.LittleEndian.AppendUint32(nil, 0x02000001)
	for _, v := range []uint32{1 << 13, 0, 0, 0} {
		caps = binary.LittleEndian.AppendUint32(caps, v)
	}
	if err := unix.Setxattr(tool, "security.capability", caps, 0); err != nil {
		t.Skipf("cannot set file capabilities here: %v", err)
	}
	s := newStore(t, root)
	before := take(t, s, root, Options{})
	must(t, s.SaveManifest("20260101-000000-aaaaaa", "before", before))
	f, err := os.OpenFile(tool, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString("more\n")
	must(t, errors.Join(err, f.Close()))
	after := take(t, s, root, Options{Prev: before})
	now := take(t, s, root, Options{Prev: after})
	plan := PlanUndo(before, after, now)
	if _, err := Apply(s, root, plan); err != nil {
		t.Fatal(err)
	}
	if got := xattrsOf(tool); got != "security.capability="+hex.EncodeToString(caps) {
		t.Errorf("the tool's capabilities after undo: %q", got)
	}
}
