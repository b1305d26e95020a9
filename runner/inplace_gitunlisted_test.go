//go:build unix

package runner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
)

// The coder makes a directory unlistable as it makes it (mkdir -m 311
// hid; the watch cannot follow it) and builds hid/lib/.git inside: git
// finds it by name with search permission alone and runs its config on
// the host. The end-of-run sweep opens the directory for its listing and
// quarantines the repository, and puts the directory's mode back; the
// person's own directory unlistable at the start is left as it is. Root
// lists everything: the test runs as the unprivileged CI user.
func TestSweepQuarantinesAGitDirInADirectoryTheCoderMadeUnlistable(t *testing.T) {
	t.Parallel()
	if testuser.Rerun(t, testuser.CI) {
		return
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	mine := filepath.Join(root, "mine")
	gitInit(t, filepath.Join(mine, "lib"))
	if err := os.Chmod(mine, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(mine, 0o755) })
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	hid := filepath.Join(root, "hid")
	gitInit(t, filepath.Join(hid, "lib"))
	if err := os.Chmod(hid, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(hid, 0o755) })
	moved := g.sweep()
	if !slices.Contains(moved, filepath.Join(hid, "lib", ".git")) {
		t.Errorf("swept %v: the git dir inside the directory the coder made unlistable stayed", moved)
	}
	if _, err := os.Lstat(filepath.Join(hid, "lib", ".git")); err == nil {
		t.Error("hid/lib/.git is still in the place")
	}
	if st, err := os.Stat(hid); err != nil || st.Mode().Perm() != 0o311 {
		t.Errorf("the directory's mode was not put back: %v %v", st.Mode(), err)
	}
	if _, err := os.Lstat(filepath.Join(mine, "lib", ".git")); err != nil {
		t.Errorf("the person's repository in their own unlistable directory was taken: %v", err)
	}
}
