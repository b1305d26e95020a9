//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"golang.org/x/sys/unix"
)

func gitInit(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init %s: %v\n%s", dir, err, out)
	}
}

// guarded is an rw path holding the person's nested repository vendor/lib,
// walked as before a sandbox starts.
func guarded(t *testing.T) (*gitGuard, string) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root := t.TempDir()
	gitInit(t, filepath.Join(root, "vendor", "lib"))
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		t.Fatal(err)
	}
	return g, root
}

// A command that renames the parent of the person's nested repository
// (which succeeds: only the repository is mounted read-only) does not get
// it quarantined: it is the same git dir at a new path, named as moved.
func TestSweepLeavesAMovedRepositoryAlone(t *testing.T) {
	g, root := guarded(t)
	if err := os.Rename(filepath.Join(root, "vendor"), filepath.Join(root, "vendor2")); err != nil {
		t.Fatal(err)
	}
	said := strings.Join(g.sweep(), "\n")
	if _, err := os.Stat(filepath.Join(root, "vendor2", "lib", ".git", "HEAD")); err != nil {
		t.Fatalf("the person's repository is gone from where the command moved it: %v\n%s", err, said)
	}
	if strings.Contains(said, "quarantined") || !strings.Contains(said, "moved: "+filepath.Join(root, "vendor", "lib", ".git")+" → "+filepath.Join(root, "vendor2", "lib", ".git")) {
		t.Errorf("the sweep does not name the repository as moved:\n%s", said)
	}
	if again := g.sweep(); len(again) != 0 {
		t.Errorf("the moved repository is named again on the next sweep: %q", again)
	}
	// A new repository at the old path is still new.
	gitInit(t, filepath.Join(root, "vendor", "lib"))
	if said := strings.Join(g.sweep(), "\n"); !strings.Contains(said, "quarantined a git dir this command made, "+filepath.Join(root, "vendor", "lib", ".git")) {
		t.Errorf("a new repository at the moved one's old path is not quarantined:\n%s", said)
	}
}

// A new git dir that cannot be moved (the state dir on another file
// system) stays where it is and the answer says so: nothing is deleted.
func TestSweepNeverDeletesAGitDirItCannotMove(t *testing.T) {
	g, root := guarded(t)
	renameat = func(int, string, int, string) error { return unix.EXDEV }
	t.Cleanup(func() { renameat = unix.Renameat })
	fresh := filepath.Join(root, "new")
	gitInit(t, fresh)
	said := strings.Join(g.sweep(), "\n")
	if _, err := os.Stat(filepath.Join(fresh, ".git", "HEAD")); err != nil {
		t.Fatalf("a git dir Sentinel could not move is gone: %v\n%s", err, said)
	}
	if !strings.Contains(said, "could not quarantine "+filepath.Join(fresh, ".git")) || !strings.Contains(said, "it is still there; do not run git in it") {
		t.Errorf("the sweep does not say the git dir is still there:\n%s", said)
	}
}

// The mover does not follow a directory swapped for a link after the
// sweep found the entry, even when the link leads to the very entry (by
// identity) it was asked to move, and moves nothing that changed.
func TestMoveOutFollowsNoSwappedLink(t *testing.T) {
	root, outside, q := t.TempDir(), t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "b", ".git")
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	id, err := idOf(victim)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	if err := moveOut(root, filepath.Join(root, "a", "b", ".git"), id, q, "x"); err == nil {
		t.Error("moveOut followed a link out of the rw path")
	}
	if _, err := os.Stat(victim); err != nil {
		t.Fatalf("the directory behind the link moved: %v", err)
	}
	// A different entry where the sweep saw one is not moved either.
	p := filepath.Join(root, "c", ".git")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := moveOut(root, p, id, q, "y"); err != errChanged {
		t.Errorf("moveOut of a changed entry: %v, want errChanged", err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the changed entry moved: %v", err)
	}
	pid, _ := idOf(p)
	if err := moveOut(root, p, pid, q, "z"); err != nil {
		t.Fatalf("moveOut of the entry the sweep saw: %v", err)
	}
	if _, err := os.Stat(filepath.Join(q, "z")); err != nil {
		t.Errorf("the entry is not in the quarantine: %v", err)
	}
}

// A directory the sweep cannot list (chmod 311 by the command, where
// Sentinel runs without CAP_DAC_READ_SEARCH) is named after the command:
// git would still find a repository in it.
func TestSweepNamesWhatItCannotList(t *testing.T) {
	g, root := guarded(t)
	src := filepath.Join(root, "src")
	scanTree = func(root, own, skip string, max int) (gitdir.Scan, error) {
		sc, err := gitdir.ScanTree(root, own, skip, max)
		sc.Unlisted = append(sc.Unlisted, src)
		return sc, err
	}
	t.Cleanup(func() { scanTree = gitdir.ScanTree })
	if said := strings.Join(g.sweep(), "\n"); !strings.Contains(said, src+" cannot be listed, so Sentinel cannot check it for repositories") {
		t.Errorf("the sweep does not name the directory it cannot list:\n%s", said)
	}
}
