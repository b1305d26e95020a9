//go:build unix

package gitdir

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// The mover does not follow a directory swapped for a link after the
// sweep found the entry, even when the link leads to the very entry (by
// identity) it was asked to move, and moves nothing that changed.
func TestMoveOutFollowsNoSwappedLink(t *testing.T) {
	root, outside, q := t.TempDir(), t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "b", ".git")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := IDOf(victim)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if err := MoveOut(root, filepath.Join(root, "a", "b", ".git"), id, q, "x"); err == nil {
		t.Error("MoveOut followed a link out of the root")
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the directory behind the link moved: %v", err)
	}
	// A different entry where the sweep saw one is not moved either.
	p := filepath.Join(root, "c", ".git")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := MoveOut(root, p, id, q, "y"); err != ErrChanged {
		t.Errorf("MoveOut of a changed entry: %v, want ErrChanged", err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the changed entry moved: %v", err)
	}
	pid, _ := IDOf(p)
	if err := MoveOut(root, p, pid, q, "z"); err != nil {
		t.Fatalf("MoveOut of the entry the sweep saw: %v", err)
	}
	if _, err := os.Stat(filepath.Join(q, "z")); err != nil {
		t.Errorf("the entry is not in the quarantine: %v", err)
	}
}

// planted is a git dir under a fresh root with a hook, a subdirectory and
// a link; it returns the root, the git dir and its identity.
func planted(t *testing.T) (root, gd string) {
	t.Helper()
	root = t.TempDir()
	gd = filepath.Join(root, "vendor", ".git")
	for f, body := range map[string]string{"HEAD": "ref: refs/heads/main\n", "hooks/pre-commit": "#!/bin/sh\ntouch PWNED\n", "refs/heads/main": "0000\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(gd, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(gd, f), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(gd, "objects")); err != nil {
		t.Fatal(err)
	}
	return root, gd
}

func acrossFileSystems(t *testing.T) {
	t.Cleanup(FailRenamesForTest(unix.EXDEV))
}

// Where the quarantine is on another file system, the git dir is copied
// whole (its hook executable still, its link a link) and then removed.
func TestMoveOutAcrossFileSystemsCopiesWholeThenRemoves(t *testing.T) {
	acrossFileSystems(t)
	root, gd := planted(t)
	q := t.TempDir()
	id, _ := IDOf(gd)
	if err := MoveOut(root, gd, id, q, "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(gd); !os.IsNotExist(err) {
		t.Errorf("the git dir is still in the place: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(q, "x", "hooks", "pre-commit")); err != nil || !strings.Contains(string(b), "PWNED") {
		t.Errorf("the hook is not in the quarantine whole: %q %v", b, err)
	}
	if st, err := os.Stat(filepath.Join(q, "x", "hooks", "pre-commit")); err != nil || st.Mode().Perm()&0o100 == 0 {
		t.Errorf("the hook lost its mode: %v %v", st, err)
	}
	if l, err := os.Readlink(filepath.Join(q, "x", "objects")); err != nil || l != "/etc" {
		t.Errorf("the link was not kept as a link: %q %v", l, err)
	}
}

// What cannot be copied (a pipe) keeps the whole git dir where it is, and
// the partial copy is gone from the quarantine.
func TestMoveOutAcrossFileSystemsDeletesNothingItCannotCopy(t *testing.T) {
	acrossFileSystems(t)
	root, gd := planted(t)
	if err := syscall.Mkfifo(filepath.Join(gd, "zz-fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := t.TempDir()
	id, _ := IDOf(gd)
	err := MoveOut(root, gd, id, q, "x")
	if err == nil || !strings.Contains(err.Error(), "nothing of it was removed") {
		t.Fatalf("MoveOut = %v, want it to say nothing was removed", err)
	}
	for _, f := range []string{"HEAD", "hooks/pre-commit", "refs/heads/main", "zz-fifo", "objects"} {
		if _, err := os.Lstat(filepath.Join(gd, f)); err != nil {
			t.Errorf("%s is gone from the place: %v", f, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(q, "x")); !os.IsNotExist(err) {
		t.Errorf("the partial copy is left in the quarantine: %v", err)
	}
}

// A file written or added in the git dir between the copy and the removal
// is not removed: only what was copied, unchanged, is.
func TestMoveOutAcrossFileSystemsKeepsWhatChangedAfterTheCopy(t *testing.T) {
	acrossFileSystems(t)
	root, gd := planted(t)
	afterCopy = func() {
		os.WriteFile(filepath.Join(gd, "hooks", "pre-commit"), []byte("#!/bin/sh\nrewritten\n"), 0o755)
		os.WriteFile(filepath.Join(gd, "refs", "heads", "added"), []byte("1111\n"), 0o644)
	}
	t.Cleanup(func() { afterCopy = nil })
	q := t.TempDir()
	id, _ := IDOf(gd)
	err := MoveOut(root, gd, id, q, "x")
	if err == nil || !strings.Contains(err.Error(), "stays where it is") {
		t.Fatalf("MoveOut = %v, want it to say what changed stays", err)
	}
	if b, _ := os.ReadFile(filepath.Join(gd, "hooks", "pre-commit")); !strings.Contains(string(b), "rewritten") {
		t.Errorf("the file rewritten after the copy was removed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(gd, "refs", "heads", "added")); err != nil {
		t.Errorf("the file added after the copy was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(gd, "HEAD")); !os.IsNotExist(err) {
		t.Errorf("an unchanged copied file was not removed: %v", err)
	}
}
