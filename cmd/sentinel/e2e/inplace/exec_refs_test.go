package inplace

import (
	"path/filepath"
	"strings"
	"testing"
)

// A coder under `sentinel exec` that resets the person's branch, deletes
// another and tags is reported at the end of the run: each ref that moved,
// the person's flagged with how to put it back (31.2).
func TestExecReportsRefMoves(t *testing.T) {
	dir := scratchRepo(t)
	first := git(t, dir, "rev-parse", "HEAD")
	writeFile(t, filepath.Join(dir, "second.txt"), "2\n")
	git(t, dir, "add", "second.txt")
	git(t, dir, "commit", "-qm", "second")
	git(t, dir, "branch", "keep")
	script := "git -c user.name=c -c user.email=c@c update-ref refs/heads/main " + first +
		" && git branch -D keep && git tag coder-tag " + first
	res := sentinel(t, dir, []string{"HOME=" + t.TempDir()}, "exec", "--plain", "--", "/bin/sh", "-c", script)
	if res.code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.code, res.stderr, res.stdout)
	}
	out := res.stdout + res.stderr
	for _, want := range []string{
		"refs/heads/main: moved", "[yours: git update-ref refs/heads/main",
		"refs/heads/keep: deleted", "refs/tags/coder-tag: new",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the end of the run does not say %q:\n%s", want, out)
		}
	}
}
