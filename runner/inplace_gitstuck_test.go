//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"golang.org/x/sys/unix"
)

// With the quarantine on another file system, a git dir the coder made is
// copied out whole and removed; one that cannot be copied whole (a pipe
// in it) is renamed where it is (git no longer finds it), the pipe kept,
// and the guard names it as stuck (for the end of the run).
func TestSweepAcrossFileSystemsMovesWholeOrKeepsAndSays(t *testing.T) {
	t.Parallel()
	p, g := guardedRepo(t)
	root := p.Root
	g.mover = gitdir.Mover{Renameat: func(int, string, int, string) error { return unix.EXDEV }}
	gitInit(t, filepath.Join(root, "copyable"))
	gitInit(t, filepath.Join(root, "piped"))
	pipe := filepath.Join(root, "piped", ".git", "pipe")
	if err := unix.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	moved := g.sweep()
	if !slices.Contains(moved, filepath.Join(root, "copyable", ".git")) {
		t.Errorf("swept %v, want the copyable repository", moved)
	}
	if _, err := os.Lstat(filepath.Join(root, "copyable", ".git")); !os.IsNotExist(err) {
		t.Errorf("the copyable repository is still in the place: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "piped", ".git")); !os.IsNotExist(err) {
		t.Errorf("piped/.git is still where git finds it: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(root, "piped", gitdir.HeldPrefix+"1-git", "pipe")); err != nil {
		t.Errorf("the pipe was not kept in the renamed git dir: %v", err)
	}
	if stuck := strings.Join(g.Stuck(), "\n"); !strings.Contains(stuck, filepath.Join(root, "piped", ".git")+": ") {
		t.Errorf("the guard does not name the git dir it could not move: %q", stuck)
	}
}
