package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// A directory of the workspace made to look like a git directory (HEAD and
// refs, written as plain files) is a repository git obeys: with the sandbox
// off, git run there asks; inside the sandbox, and in a plain directory of
// the workspace, it stays allowed.
func TestGitInARepositoryTheCoderMadeAsksWithTheSandboxOff(t *testing.T) {
	ctx := testEnv(t)
	evil := filepath.Join(ctx.Workspace, "evil")
	for _, d := range []string{"objects", "refs/heads", "sub"} {
		if err := os.MkdirAll(filepath.Join(evil, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(evil, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := Default()
	on := ctx
	on.Sandboxed = true
	for _, cmd := range []string{"git -C evil log -p", "cd evil && git show", "git -C evil/sub diff", "(cd evil/sub; git log)"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s: %s", cmd, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q is %s by %s: %s (want allow)", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{"git -C src log -p", "cd src && git status", "git diff", "cd tests && git log --oneline"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off: %q is %s by %s: %s (want allow)", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
