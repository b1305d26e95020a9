package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestMayBeInRepoOnlyWhenGitCouldFindOne: outside every repository (no .git
// and no git directory up the path) git is not asked; inside a work tree's
// subdirectory, a bare repository, or through a symlink into a work tree it
// is, and TopLevel answers as git does.
func TestMayBeInRepoOnlyWhenGitCouldFindOne(t *testing.T) {
	root := t.TempDir()
	plain := filepath.Join(root, "plain", "deep")
	repoSub := filepath.Join(root, "repo", "a", "b")
	bareSub := filepath.Join(root, "bare.git", "objects")
	for _, d := range []string{plain, repoSub, filepath.Join(root, "repo", ".git"), bareSub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "bare.git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	link := filepath.Join(root, "plain", "into-repo")
	if err := os.Symlink(repoSub, link); err != nil {
		t.Fatal(err)
	}
	if inRepo := mayBeInRepo(root); inRepo {
		t.Skipf("%s lies inside something git could take for a repository; nothing to prove here", root)
	}
	for dir, want := range map[string]bool{plain: false, repoSub: true, bareSub: true, link: true} {
		if got := mayBeInRepo(dir); got != want {
			t.Errorf("mayBeInRepo(%s) = %v, want %v", dir, got, want)
		}
	}
}

func TestTopLevelOutsideAndInsideARepository(t *testing.T) {
	root := t.TempDir()
	if mayBeInRepo(root) {
		t.Skipf("%s lies inside something git could take for a repository", root)
	}
	if got := TopLevel(context.Background(), root); got != "" {
		t.Fatalf("TopLevel outside a repository = %q", got)
	}
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "sub")
	os.MkdirAll(sub, 0o755)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	want, _ := filepath.EvalSymlinks(repo)
	if got := TopLevel(context.Background(), sub); got != want {
		t.Fatalf("TopLevel in a subdirectory = %q, want %s", got, want)
	}
}
