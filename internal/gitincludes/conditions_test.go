package gitincludes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// The person's global config includes a file under a condition that does
// not hold where Sentinel looks (gitdir:~/work/ while exec starts in
// ~/work itself, which is no repository; onbranch: of a branch not checked
// out), and that file includes one in the place, sets a relative
// core.hooksPath, or names a program in the place. The condition holds on
// the person's next git command in a repository there: each must be found
// as if it held.
func TestIncludesBehindAConditionThatDoesNotHoldAreFollowed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		t.Setenv(k, "") // put back after the test
		os.Unsetenv(k)  // an empty GIT_CONFIG_GLOBAL would mean no global config
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	work := filepath.Join(home, "work")
	repo := filepath.Join(work, "repoA")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".gitconfig"), "[includeIf \"gitdir:~/work/\"]\n\tpath = ~/.gitconfig-work\n"+
		"[includeIf \"onbranch:release/**\"]\n\tpath = ~/.gitconfig-release\n")
	write(filepath.Join(home, ".gitconfig-work"), "[include]\n\tpath = ~/work/.gitconfig-shared\n[core]\n\thooksPath = .githooks\n")
	write(filepath.Join(home, ".gitconfig-release"), "[core]\n\tfsmonitor = tools/fsmon.sh\n")
	ctx := context.Background()
	gitDirs := []string{filepath.Join(repo, ".git")}

	for _, c := range []struct{ root, place string }{{work, work}, {repo, repo}} {
		roots := []string{c.place}
		files, _ := Files(ctx, c.root, gitDirs, roots)
		if c.place == work && !slices.Contains(files, filepath.Join(work, ".gitconfig-shared")) {
			t.Errorf("from %s: Files = %q, want the include behind gitdir:~/work/ (~/work/.gitconfig-shared)", c.root, files)
		}
		hooks := HooksDirs(ctx, c.root, gitDirs, roots)
		if !slices.Contains(hooks, filepath.Join(repo, ".githooks")) {
			t.Errorf("from %s: HooksDirs = %q, want repoA/.githooks (a relative core.hooksPath behind gitdir:~/work/)", c.root, hooks)
		}
		programs := Programs(ctx, c.root, gitDirs, roots)
		if !slices.Contains(programs, filepath.Join(repo, "tools/fsmon.sh")) {
			t.Errorf("from %s: Programs = %q, want repoA/tools/fsmon.sh (core.fsmonitor behind onbranch:release/**)", c.root, programs)
		}
	}
}
