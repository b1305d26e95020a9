package runner

import (
	"os"
	"path/filepath"
	"testing"
)

// A repository the person had at the start stays theirs when the coder
// renames a directory above it: found at its new path it is the same git
// dir (its device and inode), moved, not made, so it is not quarantined,
// while a new one beside it is.
func TestSweepLeavesAMovedRepositoryOfThePersons(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	gitInit(t, filepath.Join(root, "vendor", "lib"))
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "vendor"), filepath.Join(root, "vendor2")); err != nil {
		t.Fatal(err)
	}
	gitInit(t, filepath.Join(root, "planted"))
	moved := g.sweep()
	if len(moved) != 1 || moved[0] != filepath.Join(root, "planted", ".git") {
		t.Errorf("swept %v, want only the planted repository", moved)
	}
	if _, err := os.Stat(filepath.Join(root, "vendor2", "lib", ".git", "HEAD")); err != nil {
		t.Errorf("the person's moved repository was taken: %v", err)
	}
}

// guardedRepo is a fresh repository with its guard, as at the start of an
// in-place run.
func guardedRepo(t *testing.T) (*Project, *gitGuard) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}
