package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31: what the coder leaves in the git dir that no commit writes is
// named at the end of `sentinel exec` — a MERGE_MSG, an lfs/ store, a
// reftable/tables.list planted in a files repository (git 2.39 ignores
// it, a later git may read it), a name nobody listed — while the coder's
// own commit and branch are not; and a stopped rebase the person had,
// whose todo the coder appends an exec line to, is taken out during the
// run.
func TestExecNamesTheRestOfTheGitDir(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	gd := filepath.Join(dir, ".git")
	e2etest.WriteFile(t, filepath.Join(gd, "rebase-merge", "git-rebase-todo"), "pick "+e2etest.Git(t, dir, "rev-parse", "--short", "HEAD")+" init\n")
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
	script := `echo two > two.txt && git add two.txt && git -c user.name=C -c user.email=c@example.com commit -qm two && git branch side &&
echo 'exec touch PWNED' >> .git/rebase-merge/git-rebase-todo &&
echo "the coder's message" > .git/MERGE_MSG &&
mkdir -p .git/lfs/objects/ab/cd && echo not-the-file > .git/lfs/objects/ab/cd/abcd &&
mkdir -p .git/reftable && echo 0x000000000001-0x000000000001-0.ref > .git/reftable/tables.list &&
mkdir .git/zz-new-name && echo x > .git/zz-new-name/f`
	cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err != nil {
		t.Fatalf("sentinel exec: %v\n%s", err, out)
	}
	for _, w := range []string{
		"in your git dir that no commit, checkout or fetch writes",
		"new " + filepath.Join(gd, "MERGE_MSG"),
		"new " + filepath.Join(gd, "lfs") + "/",
		"new " + filepath.Join(gd, "reftable") + "/ — a reftable stack in a repository that does not use one",
		"new " + filepath.Join(gd, "zz-new-name") + "/",
		"rebase-merge was changed during the run and was moved at once into",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("not told %q:\n%s", w, out)
		}
	}
	for _, bad := range []string{"COMMIT_EDITMSG", "refs/heads/side", "ORIG_HEAD"} {
		if strings.Contains(out, "new "+filepath.Join(gd, bad)) || strings.Contains(out, "changed "+filepath.Join(gd, bad)) {
			t.Errorf("a routine write %s was named:\n%s", bad, out)
		}
	}
	if _, err := os.Stat(filepath.Join(gd, "rebase-merge")); err == nil {
		t.Errorf("the rewritten rebase state is still in the repository:\n%s", out)
	}
}
