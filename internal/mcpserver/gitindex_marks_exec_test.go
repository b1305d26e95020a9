//go:build unix

package mcpserver

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Through a real exec call in a sparse checkout with a sparse index: a
// command that marks a file in the cone assume-unchanged (or
// skip-worktree) and changes it, and writes a file outside the cone, hides
// nothing from the person's next git status: the marks are taken off and
// named in the answer.
func TestExecTakesOffTheMarksThatHideAChangeFromGit(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	for _, p := range []string{"in/a", "in/b", "out/d"} {
		write(t, filepath.Join(app, p), p+"\n")
	}
	for _, args := range [][]string{{"add", "."}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "one"}, {"sparse-checkout", "set", "--sparse-index", "in"}} {
		if out, err := exec.Command("git", append([]string{"-C", app}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		"git update-index --assume-unchanged in/a", "echo EVIL >> in/a",
		"git update-index --skip-worktree in/b", "echo EVIL >> in/b",
		"mkdir -p out", "echo EVIL >> out/d", "echo done",
	}, " && ")})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for _, w := range []string{"in/a: the command marked it assume-unchanged", "in/b: the command marked it skip-worktree", "the mark was taken off"} {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	out, err := exec.Command("git", "-C", app, "status", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	for _, p := range []string{" M in/a", " M in/b", " M out/d"} {
		if !strings.Contains(string(out), p) {
			t.Errorf("the person's git status does not show %q:\n%s", p, out)
		}
	}
}
