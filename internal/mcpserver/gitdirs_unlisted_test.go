//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
)

// A command (the server's own user) makes a directory unlistable as it
// makes it (mkdir -m 311 hid), so the live watch cannot follow it, and
// builds hid/lib/.git with a core.fsmonitor inside: git finds it by name
// with search permission alone. The sweep after the command opens the
// directory for its listing and quarantines the repository; the
// directory's mode is put back. A directory unlistable at the start (the
// person's) is left as it is and named. Root lists everything: the test
// runs as the unprivileged CI user.
func TestSweepQuarantinesAGitDirInADirectoryMadeUnlistable(t *testing.T) {
	t.Parallel()

	if testuser.Rerun(t, testuser.CI) {
		return
	}
	root := t.TempDir()
	mine := filepath.Join(root, "mine")
	if err := os.Mkdir(mine, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(mine, 0o755) })
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		t.Fatal(err)
	}
	hid := filepath.Join(root, "hid")
	gitInit(t, filepath.Join(hid, "lib"))
	if err := os.Chmod(hid, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(hid, 0o755) })
	said := strings.Join(g.sweep(), "\n")
	if _, err := os.Lstat(filepath.Join(hid, "lib", ".git")); err == nil {
		t.Errorf("a git dir made inside an unlistable directory is still in the place:\n%s", said)
	}
	if !strings.Contains(said, "quarantined a git dir this command made, "+filepath.Join(hid, "lib", ".git")) {
		t.Errorf("the sweep does not name the git dir it quarantined:\n%s", said)
	}
	if st, err := os.Stat(hid); err != nil || st.Mode().Perm() != 0o311 {
		t.Errorf("the directory's mode was not put back: %v %v", st.Mode(), err)
	}
	if !strings.Contains(said, mine+" cannot be listed") {
		t.Errorf("the person's own unlistable directory is not named as such:\n%s", said)
	}
}
