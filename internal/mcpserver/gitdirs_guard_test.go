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
	t.Parallel()

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

// A new git dir that cannot be moved whole (the state dir on another file
// system, and a pipe in it that cannot be copied) is renamed where it is,
// so git no longer finds it, and the answer and the person's stderr say
// where: the pipe is not deleted. One that can be copied whole is
// quarantined across file systems.
func TestSweepNeverDeletesAGitDirItCannotMove(t *testing.T) {
	g, root := guarded(t)
	g.mover = gitdir.Mover{Renameat: func(int, string, int, string) error { return unix.EXDEV }}
	copyable := filepath.Join(root, "copyable")
	gitInit(t, copyable)
	fresh := filepath.Join(root, "new")
	gitInit(t, fresh)
	if err := unix.Mkfifo(filepath.Join(fresh, ".git", "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	var told []string
	tellPerson = func(l string) { told = append(told, l) }
	t.Cleanup(func() { tellPerson = func(string) {} })
	said := strings.Join(g.sweep(), "\n")
	held := filepath.Join(fresh, gitdir.HeldPrefix+"1-git")
	if _, err := os.Stat(filepath.Join(held, "pipe")); err != nil {
		t.Fatalf("a git dir Sentinel could not move whole is not kept, renamed: %v\n%s", err, said)
	}
	if _, err := os.Lstat(filepath.Join(fresh, ".git")); !os.IsNotExist(err) {
		t.Errorf("the git dir is still where git finds it: %v", err)
	}
	if !strings.Contains(said, "could not quarantine "+filepath.Join(fresh, ".git")) || !strings.Contains(said, held) {
		t.Errorf("the sweep does not say where the git dir is:\n%s", said)
	}
	if !strings.Contains(strings.Join(told, "\n"), held) {
		t.Errorf("the person is not told: %q", told)
	}
	if _, err := os.Lstat(filepath.Join(copyable, ".git")); !os.IsNotExist(err) || !strings.Contains(said, "quarantined a git dir this command made, "+filepath.Join(copyable, ".git")) {
		t.Errorf("a git dir that could be copied whole is not quarantined across file systems (%v):\n%s", err, said)
	}
}

// A directory the sweep cannot list (chmod 311 by the command, where
// Sentinel runs without CAP_DAC_READ_SEARCH) is named after the command:
// git would still find a repository in it.
func TestSweepNamesWhatItCannotList(t *testing.T) {
	g, root := guarded(t)
	src := filepath.Join(root, "src")
	scanTree = func(root, own, skip string, max int, opts ...gitdir.ScanOption) (gitdir.Scan, error) {
		sc, err := gitdir.ScanTree(root, own, skip, max, opts...)
		sc.Unlisted = append(sc.Unlisted, src)
		return sc, err
	}
	t.Cleanup(func() { scanTree = gitdir.ScanTree })
	if said := strings.Join(g.sweep(), "\n"); !strings.Contains(said, src+" cannot be listed, so Sentinel cannot check it for repositories") {
		t.Errorf("the sweep does not name the directory it cannot list:\n%s", said)
	}
}
