package inplace

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A coder under exec stages a trojaned Makefile and copies the original
// back over the file (issue 31): the work tree is unchanged, but `git
// checkout -- Makefile` or `git commit` would take the coder's recipe. The
// end of the run names Makefile as DANGEROUS, and 'sentinel undo' puts the
// index back, so nothing is staged.
func TestExecReportsAndUndoesAStagedTrojan(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "test:\n\ttrue\n")
	e2etest.Git(t, dir, "add", "Makefile")
	e2etest.Git(t, dir, "commit", "-qm", "make")
	e2etest.Git(t, dir, "reset", "-q") // nothing staged at the start
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	script := "cp Makefile /tmp/mk.orig && printf 'test:\\n\\ttouch pwned\\n' > Makefile && git add Makefile && cp /tmp/mk.orig Makefile && touch -r /tmp/mk.orig Makefile"
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "/bin/sh", "-c", script)
	if res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	if e2etest.Git(t, dir, "diff", "--cached", "--name-only") != "Makefile" {
		t.Fatal("the coder's script did not stage Makefile; the test proves nothing")
	}
	out := res.Stdout + res.Stderr
	if !strings.Contains(out, "Makefile: staged content changed [DANGEROUS: staged content differs from the file: `git checkout -- Makefile`") ||
		!strings.Contains(out, "git restore --staged Makefile") || !strings.Contains(out, "[runs code later") {
		t.Errorf("the end of the run does not flag the staged Makefile:\n%s", out)
	}
	undo := e2etest.Sentinel(t, dir, env, "undo")
	if undo.Code != 0 {
		t.Fatalf("undo: exit %d\n%s%s", undo.Code, undo.Stdout, undo.Stderr)
	}
	if got := e2etest.Git(t, dir, "diff", "--cached", "--name-only"); got != "" {
		t.Fatalf("undo left staged: %q\n%s%s", got, undo.Stdout, undo.Stderr)
	}
}

// An ordinary `git add` of a changed file by the coder is reported as
// staged, not as dangerous: the staged content is the file.
func TestExecReportsAnOrdinaryAddAsStaged(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.Git(t, dir, "reset", "-q")
	env := []string{"HOME=" + execHome(t), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	res := e2etest.Sentinel(t, dir, env, "exec", "--plain", "--", "/bin/sh", "-c", "echo more >> main.txt && git add main.txt")
	if res.Code != 0 {
		t.Fatalf("exec: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	out := res.Stdout + res.Stderr
	if !strings.Contains(out, "main.txt: staged content changed") {
		t.Errorf("the end of the run does not report the staged main.txt:\n%s", out)
	}
	if strings.Contains(out, "DANGEROUS") {
		t.Errorf("an ordinary add is flagged as dangerous:\n%s", out)
	}
}
