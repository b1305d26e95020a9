package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A split index (the coder's `git update-index --split-index`, or the
// person's core.splitIndex) names its shared part beside itself: the copy
// the end compares could not be read ("index file open failed"), and the
// staged report gave way to "could not compare the index", its DANGEROUS
// lines with it (h/ipatk8). The copies are now written whole, and read.
func TestASplitIndexIsCopiedWhole(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "Makefile"), "all:\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "one")
	gitT(t, dir, "update-index", "--split-index")
	w := &Workspace{Dir: dir, Shadow: filepath.Join(t.TempDir(), "shadow.git"), project: &Project{Root: dir, GitDir: filepath.Join(dir, ".git")}}
	if err := os.MkdirAll(w.Shadow, 0o755); err != nil {
		t.Fatal(err)
	}
	gitT(t, w.Shadow, "init", "-q", "--bare")
	if err := w.recordIndex(); err != nil {
		t.Fatal(err)
	}
	got, err := w.stagedEntries(context.Background(), projectIndexStart(w.Shadow))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["Makefile"]; !ok {
		t.Errorf("the start copy of a split index lacks Makefile: %v", got)
	}
}
