//go:build unix

package mcpserver

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Through a real exec call: what a command leaves in the rw path's git dir
// outside what a commit writes (a MERGE_MSG, an lfs store, a name nobody
// listed, a reflog turned into a link) is named in its answer and its
// audit record, as sentinel exec's end-of-run report names it; a commit
// and a branch are not named.
func TestExecNamesTheRestOfTheGitDir(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitInit(t, app)
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, srv := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": "git -c user.email=a@b -c user.name=a commit -q --allow-empty -m two && git branch side && echo committed"})
	if !strings.Contains(got, "committed") {
		t.Fatalf("the commit did not run: %s", got)
	}
	if strings.Contains(got, "no commit, checkout or fetch writes") {
		t.Errorf("a commit and a branch were named:\n%s", got)
	}
	gd := filepath.Join(app, ".git")
	// A program the policy cannot read writes them (a script).
	write(t, filepath.Join(app, "s.sh"), `cd .git; echo "Merge: the coder's words" > MERGE_MSG; mkdir -p lfs/objects && echo x > lfs/objects/ab; echo x > zz-left; rm -f logs/HEAD && ln -s /tmp/elsewhere logs/HEAD; echo done`+"\n")
	got = mustAllow(t, cs, "exec", map[string]any{"command": "sh s.sh"})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	want := []string{
		"new " + filepath.Join(gd, "MERGE_MSG") + " — your next `git commit` takes it as its message",
		"new " + filepath.Join(gd, "lfs") + "/",
		"new " + filepath.Join(gd, "zz-left"),
		"changed " + filepath.Join(gd, "logs", "HEAD") + " (a symbolic link to /tmp/elsewhere)",
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("the answer lacks %q:\n%s", w, got)
		}
	}
	if !slices.ContainsFunc(auditCalls(t, srv), func(c Call) bool {
		return c.Tool == "exec" && strings.Contains(strings.Join(c.GitSweep, "\n"), want[0])
	}) {
		t.Errorf("no audit record names the git dir's rest")
	}
	if again := mustAllow(t, cs, "exec", map[string]any{"command": "true"}); strings.Contains(again, "MERGE_MSG") {
		t.Errorf("named again after a command that changed nothing:\n%s", again)
	}
}
