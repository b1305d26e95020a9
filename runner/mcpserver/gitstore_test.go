//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// A command that deletes the person's object store and a branch (issue
// 31: `fatal: bad object HEAD`, nothing reported) is named loudly, the
// deleted ref with how to put it back, and no further command runs.
func TestExecDeletingObjectsIsToldAndStopsTheServer(t *testing.T) {
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
	for _, w := range []string{"DELETED", "git object store of " + app, "DELETED your ref refs/heads/keep", "git update-ref refs/heads/keep "} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	got, _ = call(t, cs, "exec", map[string]any{"command": "echo again"})
	if strings.Contains(got, "again") || !strings.Contains(got, "deleted git objects") {
		t.Errorf("a command ran after the object store was deleted:\n%s", got)
	}
}
