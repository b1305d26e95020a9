package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A folder whose .git is a file pointing at a git dir with no commit (`git
// init --separate-git-dir`, however the git dir is named) is refused as a
// .git directory with no commit is, naming the folder.
func TestAnEmptyRepositoryBehindAGitFileIsRefused(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	app := filepath.Join(root, "app")
	os.MkdirAll(app, 0o755)
	if out, err := exec.Command("git", "init", "-q", "--separate-git-dir", filepath.Join(root, "store"), app).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	if st, err := os.Lstat(filepath.Join(app, ".git")); err != nil || st.IsDir() {
		t.Fatalf("app/.git is not a file: %v", err)
	}
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	w := &Workspace{Dir: root, guard: g}
	err = w.emptyNestedRepo(context.Background())
	if err == nil || !strings.Contains(err.Error(), app+" is a git repository with no commit yet") || !strings.Contains(err.Error(), "git -C app commit") {
		t.Fatalf("want the refusal naming %s, got %v", app, err)
	}
}
