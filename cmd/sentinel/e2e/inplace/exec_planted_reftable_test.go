package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A files repository does not become a reftable one because the coder
// writes .git/reftable/tables.list (the git dir's top level is writable in
// place): a replace ref it then appends to packed-refs is named as
// DANGEROUS and deleted at the end, as without the planted table. With the
// table taken for the refs, the ref stayed unnamed, and the person's `git
// checkout -- Makefile` wrote the coder's recipe.
func TestExecPlantedReftableHidesNoReplaceRef(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "all:\n\ttrue\n")
	e2etest.Git(t, dir, "add", "Makefile")
	e2etest.Git(t, dir, "commit", "-qm", "makefile")
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
	script := `blob=$(git rev-parse HEAD:Makefile) &&
evil=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin) &&
mkdir -p .git/reftable && : > .git/reftable/tables.list &&
printf '%s refs/replace/%s\n' "$evil" "$blob" >> .git/packed-refs`
	cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sentinel exec: %v\n%s", err, out)
	}
	if refs := e2etest.Git(t, dir, "for-each-ref", "refs/replace/"); refs != "" {
		t.Errorf("the coder's replace ref is still in the repository: %s\n%s", refs, out)
	}
	if !strings.Contains(string(out), "DANGEROUS") || !strings.Contains(string(out), "refs/replace/") {
		t.Errorf("the replace ref was not told as dangerous:\n%s", out)
	}
}
