package inplace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder under `sentinel exec` that resets the person's branch, deletes
// another and tags is reported at the end of the run: each ref that moved,
// the person's flagged with how to put it back (31.2).
func TestExecReportsRefMoves(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	first := e2etest.Git(t, dir, "rev-parse", "HEAD")
	e2etest.WriteFile(t, filepath.Join(dir, "second.txt"), "2\n")
	e2etest.Git(t, dir, "add", "second.txt")
	e2etest.Git(t, dir, "commit", "-qm", "second")
	e2etest.Git(t, dir, "branch", "keep")
	script := "git -c user.name=c -c user.email=c@c update-ref refs/heads/main " + first +
		" && git branch -D keep && git tag coder-tag " + first
	res := e2etest.Sentinel(t, dir, []string{"HOME=" + t.TempDir()}, "exec", "--plain", "--", "/bin/sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	out := res.Stdout + res.Stderr
	for _, want := range []string{
		"refs/heads/main: moved", "[yours: git update-ref refs/heads/main",
		"refs/heads/keep: deleted", "refs/tags/coder-tag: new",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the end of the run does not say %q:\n%s", want, out)
		}
	}
}
