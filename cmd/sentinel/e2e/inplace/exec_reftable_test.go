package inplace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A reftable repository under the real exec, both backends: the coder
// writes a replace ref into its stack. A host git that has no reftable
// (Debian 12's 2.39) takes the place for no repository, and every git dir
// under it is a read-only mount, so the write is refused; a git that has
// reftable takes it for the project, and the replace ref is named as
// DANGEROUS (TestInPlaceSeesAReplaceRefInReftable). Either way the stack
// git reads afterwards holds no replace ref the person did not see.
func TestExecReplaceRefInReftable(t *testing.T) {
	t.Parallel()
	const fixtures = "../../../../internal/gitdir/testdata/reftable"
	for _, backend := range inPlaceBackends(t) {
		t.Run(backend, func(t *testing.T) {
			dir := t.TempDir()
			gd := filepath.Join(dir, ".git")
			copyTreeE(t, filepath.Join(fixtures, "before"), gd)
			for _, d := range []string{"objects", "refs"} {
				os.MkdirAll(filepath.Join(gd, d), 0o755)
			}
			e2etest.WriteFile(t, filepath.Join(gd, "config"), "[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n\trefstorage = reftable\n")
			e2etest.WriteFile(t, filepath.Join(dir, "Makefile"), "all:\n\ttrue\n")
			copyTreeE(t, filepath.Join(fixtures, "replaced", "reftable"), filepath.Join(dir, "staged"))
			before := treeDigest(t, filepath.Join(gd, "reftable"))
			res := e2etest.Sentinel(t, dir, nil, "exec", "--plain", "--sandbox", backend, "--", "sh", "-c", "cp staged/* .git/reftable/ && echo WRITTEN; true")
			if res.Code != 0 {
				t.Fatalf("exit %d\nstderr: %s\nstdout:\n%s", res.Code, res.Stderr, res.Stdout)
			}
			out := res.Stdout + res.Stderr
			switch {
			case !strings.Contains(res.Stdout, "WRITTEN"):
				if after := treeDigest(t, filepath.Join(gd, "reftable")); after != before {
					t.Errorf("the write was refused, yet the stack changed:\n%s", after)
				}
			case !strings.Contains(out, "DANGEROUS") || !strings.Contains(out, "(in reftable)"):
				t.Errorf("the coder wrote a replace ref into the stack and it is not named as dangerous:\n%s", out)
			}
		})
	}
}

func copyTreeE(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
