//go:build unix

package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command that tries to delete the person's object store and deletes a
// branch (issue 31: `fatal: bad object HEAD`, nothing reported) loses no
// object (the store is read-only to it), and the deleted ref is named with
// how to put it back.
func TestExecDeletingObjectsLosesNoneAndNamesTheRef(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, "README"), "hi\n")
	gitIn(t, app, "init", "-q")
	gitIn(t, app, "add", "README")
	gitIn(t, app, "commit", "-qm", "one")
	gitIn(t, app, "branch", "keep")
	write(t, filepath.Join(app, "s.sh"), "rm -rf .git/objects/pack/* .git/objects/?? .git/refs/heads/keep\necho done\n")
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "bash s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, w := range []string{"DELETED your ref refs/heads/keep", "git update-ref refs/heads/keep "} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	fsck(t, app)
}

// What still gets through to the store (here a deletion made beside the
// sandbox) is named loudly after the command, and no further command runs.
func TestDeletedObjectsAreToldAndStopTheServer(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	write(t, filepath.Join(root, "README"), "hi\n")
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", "README")
	gitIn(t, root, "commit", "-qm", "one")
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		t.Fatal(err)
	}
	snap := g.snapObjects()
	dirs, _ := filepath.Glob(filepath.Join(root, ".git", "objects", "??"))
	for _, d := range dirs {
		os.RemoveAll(d)
	}
	said := strings.Join(g.checkObjects(context.Background(), snap), "\n")
	if !strings.Contains(said, "DELETED") || !strings.Contains(said, "git object store of "+root) {
		t.Errorf("the deletion is not named:\n%s", said)
	}
	if g.halted() == "" {
		t.Error("commands would go on running")
	}
}
