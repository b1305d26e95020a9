//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An exec call cannot leave git anything to run on the person's next
// command (escape path 1 of issue 31 through sentinel mcp, with the paths
// spelled so the policy cannot read them): a nested repository's config
// and hooks, the rw path's own worktrees/ and a planted .git/commondir
// stay as they were, and a repository or .git pointer the command made is
// quarantined after it and named in the answer.
func TestExecLeavesNoGitDirBehind(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	gitIn(t, app, "init", "-q")
	old := filepath.Join(app, "vendor", "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, old, "init", "-q")
	write(t, filepath.Join(old, "a.txt"), "a\n")
	gitIn(t, old, "add", ".")
	gitIn(t, old, "commit", "-qm", "x")
	oldConfig, _ := os.ReadFile(filepath.Join(old, ".git", "config"))
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		`g=$(ls -d .gi?)`,
		`echo '[core] fsmonitor = touch PWNED-OLD' >> vendor/old/$g/config`,
		`echo 'touch PWNED-HOOK' > vendor/old/$g/hooks/pre-commit`,
		`git init -q vendor/lib; echo '[core] fsmonitor = touch PWNED-NEW' >> vendor/lib/$g/config`,
		`mkdir -p fake/objects fake/refs sub && echo 'ref: refs/heads/x' > fake/HEAD && echo 'gitdir: ../fake' > sub/$g`,
		`mkdir -p $g/worktrees/w && echo /tmp > $g/worktrees/w/commondir`,
		`echo ../fake > $g/commondir`,
		`echo done`}, "; ")})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(old, ".git", "config")); string(b) != string(oldConfig) {
		t.Errorf("the nested repository's config changed:\n%s", b)
	}
	for _, p := range []string{"vendor/old/.git/hooks/pre-commit", "vendor/lib/.git", "sub/.git", "fake/HEAD", ".git/worktrees/w", ".git/commondir"} {
		if _, err := os.Lstat(filepath.Join(app, p)); err == nil {
			t.Errorf("%s is there after the call", p)
		}
	}
	for _, p := range []string{"vendor/lib/.git", "sub/.git", ".git/commondir"} {
		if !strings.Contains(got, "quarantined a git dir this command made, "+filepath.Join(app, p)) {
			t.Errorf("the answer does not name %s as quarantined:\n%s", p, got)
		}
	}
}
