//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=P", "-c", "user.email=p@p"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// An rw path whose .git is a file (a linked worktree, a repository made
// with --separate-git-dir) leads git to a git dir named anything: the file
// tools refuse to write in that git dir and in its common dir —
// commondir, gitdir, config.worktree, modules/, hooks, config — and to
// move, copy over or delete them, however the path is spelled, as they
// refuse a .git directory's.
func TestFileToolsRefuseTheGitDirOfALinkedWorktree(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	main, store, wt, admin := linkedWorktree(t, f.rw, f.rw)
	cfg := mustConfig(t, `[[paths]]
path = "`+wt+`"
access = "rw"

[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	cs, _ := session(t, cfg, Options{})
	evil := "[core]\n\tfsmonitor = touch /tmp/pwned\n"
	for _, p := range []string{
		filepath.Join(admin, "commondir"),
		filepath.Join(admin, "gitdir"),
		filepath.Join(admin, "config.worktree"),
		filepath.Join(admin, "HEAD"),
		filepath.Join(store, "config.worktree"),
		filepath.Join(store, "config"),
		filepath.Join(store, "commondir"),
		filepath.Join(store, "hooks", "pre-commit"),
		filepath.Join(store, "modules", "sub", "config"),
		filepath.Join(wt, ".git"),
		filepath.Join(main, ".git"),
		filepath.Join(f.rw, "store", "worktrees", "..", "config"),
	} {
		mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": evil}, ClassReadOnlyPath)
		mustRefuse(t, cs, "copy", map[string]any{"from": filepath.Join(f.rw, "notes.txt"), "to": p, "overwrite": true}, ClassReadOnlyPath)
	}
	for _, p := range []string{store, admin, filepath.Join(store, "worktrees"), filepath.Join(wt, ".git")} {
		mustRefuse(t, cs, "move", map[string]any{"from": p, "to": filepath.Join(f.rw, "moved")}, ClassReadOnlyPath)
		mustRefuse(t, cs, "delete", map[string]any{"path": p, "recursive": true}, ClassReadOnlyPath)
		mustRefuse(t, cs, "chmod", map[string]any{"path": p, "mode": "777"}, ClassReadOnlyPath)
	}
	mustRefuse(t, cs, "move", map[string]any{"from": main, "to": filepath.Join(f.rw, "main2")}, ClassReadOnlyPath)
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(wt, "work.txt"), "content": "ok\n"})
}

// So do commands: with the rw path a linked worktree, its git dir and the
// common dir (in another rw path) are held read-only, whatever they are
// named, and the sandbox starts although the rw path's .git is a file.
func TestExecCannotWriteTheGitDirOfALinkedWorktree(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	_, store, wt, admin := linkedWorktree(t, f.rw, f.outside)
	cfg := mustConfig(t, `exec_mode = "allowlist"
allowed_commands = ["cp", "true"]
[[paths]]
path = "`+wt+`"
access = "rw"

[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	if got, bad := call(t, cs, "exec", map[string]any{"command": "true"}); bad {
		t.Fatalf("the sandbox did not start with a linked worktree as rw path:\n%s", got)
	}
	evil := filepath.Join(wt, "evil.txt")
	write(t, evil, "[core]\n\tfsmonitor = touch /tmp/pwned\n")
	for _, p := range []string{
		filepath.Join(admin, "commondir"),
		filepath.Join(admin, "gitdir"),
		filepath.Join(admin, "config.worktree"),
		filepath.Join(store, "config.worktree"),
		filepath.Join(store, "config"),
		filepath.Join(store, "hooks", "pre-commit"),
		filepath.Join(wt, ".git"),
	} {
		got, _ := call(t, cs, "exec", map[string]any{"command": "cp " + evil + " " + p})
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "fsmonitor") {
			t.Errorf("%s was written:\n%s", p, got)
		}
	}
}

// linkedWorktree makes, under rw, a repository "main" whose git dir is
// "store" (--separate-git-dir) with one commit, and a linked worktree
// "wt" of it under wtParent; admin is the worktree's own dir in store.
func linkedWorktree(t *testing.T, rw, wtParent string) (main, store, wt, admin string) {
	t.Helper()
	main, store = filepath.Join(rw, "main"), filepath.Join(rw, "store")
	if out, err := exec.Command("git", "init", "-q", "--separate-git-dir", store, main).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	gitRun(t, main, "commit", "-q", "--allow-empty", "-m", "first")
	wt = filepath.Join(wtParent, "wt")
	gitRun(t, main, "worktree", "add", "-q", wt)
	return main, store, wt, filepath.Join(store, "worktrees", "wt")
}
