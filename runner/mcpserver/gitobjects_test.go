//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command that rewrites the loose object of a tracked file (the attack
// of issue 31: the person's next `git checkout -- Makefile` writes the
// command's recipe) has it moved out and named; a valid object the
// command adds (what `git commit` writes) stays.
func TestExecCannotRewriteALooseObject(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo fine\n")
	gitIn(t, app, "init", "-q")
	gitIn(t, app, "add", "Makefile")
	gitIn(t, app, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", "init")
	out, err := exec.Command("git", "-C", app, "rev-parse", "HEAD:Makefile").Output()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.TrimSpace(string(out))
	oldPath := filepath.Join(app, ".git", "objects", old[:2], old[2:])
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		`o=.g; o=${o}it/objects`,
		`old=` + old,
		`new=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin)`,
		`rm -f $o/${old:0:2}/${old:2}`,
		`cp $o/${new:0:2}/${new:2} $o/${old:0:2}/${old:2}`,
		`echo done`}, "; ")})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if !strings.Contains(got, "this command rewrote the git object "+old) {
		t.Errorf("the answer does not name the rewritten object:\n%s", got)
	}
	if _, err := os.Lstat(oldPath); err == nil {
		if b, err := exec.Command("git", "-C", app, "cat-file", "-p", old).Output(); err == nil && strings.Contains(string(b), "PWNED") {
			t.Fatalf("git reads the command's recipe for the person's Makefile:\n%s", b)
		}
	}
	if strings.Contains(got, "the git object") && strings.Count(got, "the git object") != 1 {
		t.Errorf("a valid object the command added was named too:\n%s", got)
	}
}
