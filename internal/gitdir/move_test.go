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

// acrossFileSystems is a Mover whose quarantine is on another file
// system: every rename across directories fails with EXDEV.
func acrossFileSystems() Mover {
	return Mover{Renameat: func(int, string, int, string) error { return unix.EXDEV }}
}

// Where the quarantine is on another file system, the git dir is copied
// whole (its hook executable still, its link a link) and then removed.
func TestMoveOutAcrossFileSystemsCopiesWholeThenRemoves(t *testing.T) {
	m := acrossFileSystems()
	root, gd := planted(t)
	q := t.TempDir()
	id, _ := IDOf(gd)
	if err := m.MoveOut(root, gd, id, q, "x"); err != nil {
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

// What cannot be copied (a pipe) does not keep a planted git dir where git
// finds it (issue 31 F4: the person's `git status` ran its fsmonitor): it
// is renamed in its own directory first, to a name git does not look for;
// the rest is copied out and removed, the pipe stays in the renamed dir,
// and the error says where it is.
func TestMoveOutAcrossFileSystemsHoldsWhatItCannotCopy(t *testing.T) {
	m := acrossFileSystems()
	root, gd := planted(t)
	if err := syscall.Mkfifo(filepath.Join(gd, "zz-fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := t.TempDir()
	id, _ := IDOf(gd)
	err := m.MoveOut(root, gd, id, q, "x")
	held := filepath.Join(filepath.Dir(gd), HeldPrefix+"1-git")
	if err == nil || !strings.Contains(err.Error(), held) {
		t.Fatalf("MoveOut = %v, want it to name %s", err, held)
	}
	if _, err := os.Lstat(gd); !os.IsNotExist(err) {
		t.Errorf("the git dir is still where git finds it: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(held, "zz-fifo")); err != nil {
		t.Errorf("the pipe is not kept in the renamed dir: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(q, "x", "hooks", "pre-commit")); err != nil || !strings.Contains(string(b), "PWNED") {
		t.Errorf("the rest is not in the quarantine: %q %v", b, err)
	}
}

// A file written or added in the git dir between the copy and the removal
// is not removed: only what was copied, unchanged, is.
func TestMoveOutAcrossFileSystemsKeepsWhatChangedAfterTheCopy(t *testing.T) {
	m := acrossFileSystems()
	root, gd := planted(t)
	gd0 := gd
	gd = filepath.Join(filepath.Dir(gd), HeldPrefix+"1-git") // where it is held while copied
	m.afterCopy = func() {
		os.WriteFile(filepath.Join(gd, "hooks", "pre-commit"), []byte("#!/bin/sh\nrewritten\n"), 0o755)
		os.WriteFile(filepath.Join(gd, "refs", "heads", "added"), []byte("1111\n"), 0o644)
	}
	q := t.TempDir()
	id, _ := IDOf(gd0)
	err := m.MoveOut(root, gd0, id, q, "x")
	if err == nil || !strings.Contains(err.Error(), "stays at "+gd) {
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
