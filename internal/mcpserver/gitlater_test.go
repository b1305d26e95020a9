//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command cannot leave the person's repository a replace ref (issue 31:
// every object genuine, `git checkout -- Makefile && make` runs the
// command's recipe) nor a rebase that `git rebase --continue` would go on
// with on the host: refs/replace is read-only, a replace ref written into
// packed-refs is deleted, a left-over rebase is moved out, each named; a
// commit through exec still works.
func TestExecLeavesNothingGitActsOnLater(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo fine\n")
	gitIn(t, app, "init", "-q")
	gitIn(t, app, "add", "Makefile")
	gitIn(t, app, "commit", "-qm", "one")
	gitIn(t, app, "commit", "-q", "--allow-empty", "-m", "two")
	out, err := exec.Command("git", "-C", app, "rev-parse", "HEAD:Makefile").Output()
	if err != nil {
		t.Fatal(err)
	}
	blob := strings.TrimSpace(string(out))
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		`export GIT_AUTHOR_NAME=c GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_NAME=c GIT_COMMITTER_EMAIL=c@example.com`,
		`EV=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin)`,
		`git replace -f ` + blob + ` $EV 2>/dev/null && echo LOOSE-REPLACE-WRITTEN`,
		`p=$(ls -d .gi?)/packed-refs; echo "$EV refs/replace/` + blob + `" >> $p`,
		`echo x > x && git add x && git commit -qm three && echo COMMITTED`,
		`echo done`}, "; ")})
	if !strings.Contains(got, "done") || !strings.Contains(got, "COMMITTED") {
		t.Fatalf("the command did not run or could not commit: %s", got)
	}
	if strings.Contains(got, "LOOSE-REPLACE-WRITTEN") {
		t.Errorf("refs/replace is writable to commands:\n%s", got)
	}
	if !strings.Contains(got, "the replace ref refs/replace/"+blob) {
		t.Errorf("the answer does not name the replace ref:\n%s", got)
	}
	if b, err := exec.Command("git", "-C", app, "cat-file", "-p", "HEAD:Makefile").Output(); err != nil || strings.Contains(string(b), "PWNED") {
		t.Errorf("git reads the command's recipe for the person's Makefile: %v\n%s", err, b)
	}
	// A rebase stopped at a break, with an exec line queued.
	write(t, filepath.Join(app, "ed.sh"), "#!/bin/sh\nsed -i '1i break' \"$1\"\n")
	write(t, filepath.Join(app, "s.sh"), `export GIT_AUTHOR_NAME=c GIT_AUTHOR_EMAIL=c@example.com GIT_COMMITTER_NAME=c GIT_COMMITTER_EMAIL=c@example.com
chmod +x ed.sh
GIT_SEQUENCE_EDITOR=$PWD/ed.sh git rebase -i --exec 'touch PWNED' HEAD~1 >/dev/null 2>&1
test -d .git/rebase-merge && echo STOPPED
`)
	got = mustAllow(t, cs, "exec", map[string]any{"command": "bash s.sh; echo done"})
	if !strings.Contains(got, "STOPPED") {
		t.Fatalf("the rebase did not stop: %s", got)
	}
	if !strings.Contains(got, "left-over rebase") || !strings.Contains(got, "touch PWNED") {
		t.Errorf("the answer does not name the rebase and its exec line:\n%s", got)
	}
	if _, err := os.Lstat(filepath.Join(app, ".git", "rebase-merge")); err == nil {
		t.Error("the rebase state is still in the person's repository")
	}
}
