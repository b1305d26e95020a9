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
// in it) stays, nothing of it removed, and the guard names it as stuck
// (for the end of the run) rather than saying nothing.
func TestSweepAcrossFileSystemsMovesWholeOrKeepsAndSays(t *testing.T) {
	p, g := guardedRepo(t)
	root := p.Root
	t.Cleanup(gitdir.FailRenamesForTest(unix.EXDEV))
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
	for _, f := range []string{"HEAD", "config", "pipe"} {
		if _, err := os.Lstat(filepath.Join(root, "piped", ".git", f)); err != nil {
			t.Errorf("piped/.git/%s was removed though the git dir could not be moved: %v", f, err)
		}
	}
	if stuck := strings.Join(g.Stuck(), "\n"); !strings.Contains(stuck, filepath.Join(root, "piped", ".git")+": ") {
		t.Errorf("the guard does not name the git dir it could not move: %q", stuck)
	}
}
