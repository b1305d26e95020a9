package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder that only stages (a trojaned Makefile staged, the file copied
// back): the first line of exec's summary says a staged path changed,
// never "no files changed" above a list of staged changes (issue 31).
func TestExecSummaryHeadlineCountsStagedChanges(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "test:\n\ttrue\n")
	e2etest.Git(t, dir, "add", "Makefile")
	e2etest.Git(t, dir, "commit", "-qm", "make")
	e2etest.Git(t, dir, "reset", "-q")
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	script := "cp Makefile /tmp/mk.orig && printf 'test:\\n\\ttouch pwned\\n' > Makefile && git add Makefile && cp /tmp/mk.orig Makefile && touch -r /tmp/mk.orig Makefile"
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "/bin/sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	var headline string
	for _, l := range strings.Split(res.Stderr, "\n") {
		if strings.HasPrefix(l, "sentinel: exec ") {
			headline = l
		}
	}
	if !strings.Contains(headline, "1 staged path(s) changed in your index") || strings.Contains(headline, "no files changed") {
		t.Fatalf("the summary's first line does not count the staged Makefile: %q\n%s", headline, res.Stderr)
	}
}

// The person runs `git status` after the run, which rewrites the index's
// stat data (a staged file got a new mtime) but stages nothing: `sentinel undo`
// still unstages what the coder staged instead of refusing.
func TestUndoAfterTheIndexWasRefreshedByGitStatus(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "/bin/sh", "-c", "echo coder > coder.txt && git add coder.txt")
	if res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	index := filepath.Join(dir, ".git", "index")
	left, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "staged.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	status := exec.Command("git", "status", "--porcelain")
	status.Dir = dir
	if out, err := status.CombinedOutput(); err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	if now, _ := os.ReadFile(index); string(now) == string(left) {
		t.Fatal("git status did not rewrite the index; the test proves nothing")
	}
	undo := e2etest.Sentinel(t, dir, env, "undo")
	if undo.Code != 0 {
		t.Fatalf("undo after a git status: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
	}
	if staged := e2etest.Git(t, dir, "ls-files", "-s"); strings.Contains(staged, "coder.txt") {
		t.Fatalf("undo left the coder's staging:\n%s", staged)
	}
	if got := e2etest.Git(t, dir, "diff", "--cached", "--name-only"); got != "staged.txt" {
		t.Fatalf("the person's own staging is not as it was: %q", got)
	}
}
