package inplace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The coder's ordinary commit on the checked-out branch is told on the
// branch's line, not again as new reflog entries; a commit on another
// branch and the checkouts there and back are still named as reflog
// entries pointing at the coder's commit.
func TestExecFoldsOrdinaryCommitsIntoTheBranchLine(t *testing.T) {
	backend := inPlaceBackends(t)[0]
	dir := e2etest.ScratchRepo(t)
	commit := "git -c user.name=C -c user.email=c@c commit -qm coder main.txt"
	res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", commit)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	if !strings.Contains(res.Stderr, "refs/heads/main: moved ") || !strings.Contains(res.Stderr, "(1 commit(s) the coder made on your checked-out branch") {
		t.Errorf("the branch's line does not count the coder's commit:\n%s", res.Stderr)
	}
	if all := res.Stdout + res.Stderr; strings.Contains(all, "reflog entries") {
		t.Errorf("the ordinary commit is named again as reflog entries:\n%s", all)
	}
	side := "git checkout -q -b side && echo s >> notes.md && git add notes.md && " + strings.Replace(commit, " main.txt", "", 1) + " && git checkout -q main"
	res = e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", side)
	if res.Code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
	}
	id := e2etest.Git(t, dir, "rev-parse", "side")
	if all := res.Stdout + res.Stderr; !strings.Contains(all, filepath.Join(".git", "logs", "HEAD")+" — 3 new reflog entries, pointing to "+id+" (an object the coder made)") {
		t.Errorf("the commit on another branch is not named in HEAD's reflog:\n%s", all)
	}
}
