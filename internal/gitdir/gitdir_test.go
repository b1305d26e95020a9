package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// A linked worktree as git makes it: its .git file names a git dir whose
// commondir leads back to the main repository's.
func TestALinkedWorktreesGitFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	repo, wt := filepath.Join(root, "repo"), filepath.Join(root, "wt")
	for _, args := range [][]string{{"init", "-q", repo},
		{"-C", repo, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "one"},
		{"-C", repo, "worktree", "add", "-q", wt}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	gd, ok := FileTarget(filepath.Join(wt, ".git"))
	if want := filepath.Join(repo, ".git", "worktrees", "wt"); !ok || gd != want {
		t.Fatalf("FileTarget = %q %v, want %s", gd, ok, want)
	}
	if c := filepath.Clean(Common(gd)); c != filepath.Join(repo, ".git") {
		t.Errorf("Common(%s) = %s", gd, c)
	}
	main := filepath.Join(repo, ".git")
	if c := Common(main); c != main {
		t.Errorf("Common of a main git dir = %s", c)
	}
	if files := ConfigFiles(gd); !slices.Contains(files, filepath.Join(gd, "HEAD")) || !slices.ContainsFunc(files, func(f string) bool { return filepath.Clean(f) == filepath.Join(main, "config") }) {
		t.Errorf("ConfigFiles(%s) = %q: want its HEAD and the common config", gd, files)
	}
	if files := ConfigFiles(main); len(files) != 5 {
		t.Errorf("ConfigFiles of a main git dir = %q, want its own five (reftable/tables.list the fifth)", files)
	}
	// Not a .git file: a directory, a file of another form, nothing.
	os.WriteFile(filepath.Join(root, "other"), []byte("not a git file\n"), 0o644)
	for _, p := range []string{main, filepath.Join(root, "other"), filepath.Join(root, "missing")} {
		if d, ok := FileTarget(p); ok {
			t.Errorf("FileTarget(%s) = %q", p, d)
		}
	}
}
