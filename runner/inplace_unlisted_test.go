package runner

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A directory the end sweep of an in-place run cannot list (chmod 311 by
// the coder, where Sentinel runs without CAP_DAC_READ_SEARCH; as root the
// test makes the walk refuse it) is named in the report: git would still
// find a repository in it.
func TestExecEndSweepNamesWhatItCannotList(t *testing.T) {
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	src := filepath.Join(dir, "src")
	writeTestFile(t, filepath.Join(src, "a.go"), "package a\n")
	p := &Project{Root: dir, GitDir: filepath.Join(dir, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "shadow"))
	if err != nil {
		t.Fatal(err)
	}
	scanTree = func(root, own, skip string, max int, opts ...gitdir.ScanOption) (gitdir.Scan, error) {
		sc, err := gitdir.ScanTree(root, own, skip, max, opts...)
		sc.Unlisted = append(sc.Unlisted, src)
		return sc, err
	}
	t.Cleanup(func() { scanTree = gitdir.ScanTree })
	var said []string
	g.finish(context.Background(), nil, func(_ journal.Lane, k journal.Kind, s string, _ any) {
		if k == KindError {
			said = append(said, s)
		}
	})
	if all := strings.Join(said, "\n"); !strings.Contains(all, src+" cannot be listed, so Sentinel cannot check it for git dirs") {
		t.Errorf("the end of the run does not name the directory it cannot list:\n%s", all)
	}
}
