//go:build unix

package mcpserver

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command that marks a file skip-worktree and assume-unchanged, changes
// it and then splits the index (h/ipatk8: the marks moved into
// .git/sharedindex.*, which the index reader did not follow) hides nothing
// from the person's next git status: the index is written whole, the marks
// are taken off and named.
func TestExecSeesMarksInASplitIndex(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	for _, p := range []string{"Makefile", "src/a.go"} {
		write(t, filepath.Join(app, p), p+"\n")
	}
	for _, args := range [][]string{{"add", "."}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "one"}} {
		if out, err := exec.Command("git", append([]string{"-C", app}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cfg := rwExec(t, app)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		"echo EVIL >> Makefile", "git update-index --skip-worktree Makefile",
		"echo EVIL >> src/a.go", "git update-index --assume-unchanged src/a.go",
		"git update-index --split-index", "echo done",
	}, " && ")})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, w := range []string{"Makefile: the command marked it skip-worktree", "src/a.go: the command marked it assume-unchanged", "the git index was split"} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	out, err := exec.Command("git", "-C", app, "status", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	for _, p := range []string{" M Makefile", " M src/a.go"} {
		if !strings.Contains(string(out), p) {
			t.Errorf("the person's git status does not show %q:\n%s", p, out)
		}
	}
}
