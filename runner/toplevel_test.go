package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/userstate"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// TestMayBeInRepoOnlyWhenGitCouldFindOne: outside every repository (no .git
// and no git directory up the path) git is not asked; inside a work tree's
// subdirectory, a bare repository, or through a symlink into a work tree it
// is, and TopLevel answers as git does.
func TestMayBeInRepoOnlyWhenGitCouldFindOne(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// TestTopLevelIsKeptWhileNothingGitReadChanges: git is asked once for a
// directory; files coming and going in the work tree keep its answer; a
// repository made on the way, or removed again, or a tampered cache, has
// git asked again, and the answer is git's.
func TestTopLevelIsKeptWhileNothingGitReadChanges(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	root := t.TempDir()
	if mayBeInRepo(root) {
		t.Skipf("%s lies inside something git could take for a repository", root)
	}
	bin := t.TempDir()
	starts := filepath.Join(bin, "starts")
	script := "#!/bin/sh\necho x >> '" + starts + "'\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(hostbin.SetDirsForTest([]string{bin})) // Sentinel takes git only from system dirs
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	repo, _ := filepath.EvalSymlinks(root)
	repo = filepath.Join(repo, "repo")
	sub := filepath.Join(repo, "sub")
	deep := filepath.Join(sub, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	gitInit := func(dir string) {
		t.Helper()
		if out, err := exec.Command(realGit, "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v %s", err, out)
		}
	}
	gitInit(repo)
	check := func(what, want string, asked bool) {
		t.Helper()
		os.Remove(starts)
		got := TopLevel(context.Background(), deep)
		_, err := os.Stat(starts)
		if got != want || (err == nil) != asked {
			t.Errorf("%s: TopLevel = %q (git asked: %v), want %q (asked: %v)", what, got, err == nil, want, asked)
		}
	}
	check("first", repo, true)
	check("again", repo, false)
	os.WriteFile(filepath.Join(sub, "a", "new.txt"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(repo, "README"), []byte("x"), 0o644)
	check("files made in the work tree", repo, false)

	gitInit(sub)
	check("a repository made on the way", sub, true)
	check("again", sub, false)
	if err := os.RemoveAll(filepath.Join(sub, ".git")); err != nil {
		t.Fatal(err)
	}
	check("that repository removed", repo, true)

	p, err := userstate.Path(topLevelCache.File)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	value := `"value":"` + repo + `"`
	if err != nil || !strings.Contains(string(b), value) {
		t.Fatalf("the cache holds %s (%v)", b, err)
	}
	// A forger can work out the key (it does not depend on the answer);
	// only the signature tells a forged answer from git's.
	forged := strings.ReplaceAll(string(b), value, `"value":"`+sub+`"`)
	os.WriteFile(p, []byte(forged), 0o600)
	check("a tampered cache", repo, true)
	os.WriteFile(p, []byte("not json"), 0o600)
	check("a garbled cache", repo, true)

	if out, err := exec.Command(realGit, "-C", repo, "config", "core.worktree", sub).CombinedOutput(); err != nil {
		t.Fatalf("git config: %v %s", err, out)
	}
	check("core.worktree set", sub, true)
}

// TestTopLevelIsKeptThroughGitsOwnWork: what git itself writes in .git
// (an index, a commit, a lock come and gone) keeps the answer.
func TestTopLevelIsKeptThroughGitsOwnWork(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	repo, _ := filepath.EvalSymlinks(t.TempDir())
	run := func(args ...string) {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir = repo
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	run("init", "-q")
	if got := TopLevel(context.Background(), repo); got != repo {
		t.Fatalf("TopLevel = %q, want %s", got, repo)
	}
	os.WriteFile(filepath.Join(repo, "f"), []byte("x"), 0o644)
	run("add", "f")
	run("-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "-m", "one")
	if _, ok := cachedTopLevel(repo, mustTopLevelKey(t, repo)); !ok {
		t.Fatal("a commit lost the kept answer")
	}
}

// A linked worktree (its .git a file naming the git dir) is kept like a
// work tree, and asked again once that file is gone.
func TestTopLevelOfALinkedWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if mayBeInRepo(root) {
		t.Skipf("%s lies inside something git could take for a repository", root)
	}
	repo, wt := filepath.Join(root, "repo"), filepath.Join(root, "wt")
	for _, args := range [][]string{{"init", "-q", repo},
		{"-C", repo, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "one"},
		{"-C", repo, "worktree", "add", "-q", wt}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	sub := filepath.Join(wt, "sub")
	os.Mkdir(sub, 0o755)
	for _, what := range []string{"first", "again"} {
		if got := TopLevel(context.Background(), sub); got != wt {
			t.Fatalf("%s: TopLevel = %q, want %s", what, got, wt)
		}
	}
	if _, ok := cachedTopLevel(sub, mustTopLevelKey(t, sub)); !ok {
		t.Fatal("a linked worktree's answer was not kept")
	}
	if err := os.Remove(filepath.Join(wt, ".git")); err != nil {
		t.Fatal(err)
	}
	if _, ok := cachedTopLevel(sub, mustTopLevelKey(t, sub)); ok {
		t.Fatal("the kept answer outlived the worktree's .git file")
	}
	if got := TopLevel(context.Background(), sub); got != "" {
		t.Fatalf("without its .git file: TopLevel = %q, want none", got)
	}
}

// TestTopLevelIsKeptOnlyUnderWhatGitRead: a repository made on the way
// after git read the directories but before its answer was kept has git
// asked again next time — the answer is kept under the stamps taken before
// git ran, never under later ones, which would keep the old answer for
// the new repository.
func TestTopLevelIsKeptOnlyUnderWhatGitRead(t *testing.T) {
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if mayBeInRepo(root) {
		t.Skipf("%s lies inside something git could take for a repository", root)
	}
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "sub")
	deep := filepath.Join(sub, "a")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(realGit, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	// git answers, then (still inside "git", before Sentinel keeps the
	// answer) a repository appears at $SENTINEL_TEST_INIT.
	bin := t.TempDir()
	script := "#!/bin/sh\nout=$('" + realGit + "' \"$@\"); rc=$?\n" +
		"if [ -n \"$SENTINEL_TEST_INIT\" ]; then '" + realGit + "' init -q \"$SENTINEL_TEST_INIT\"; fi\n" +
		"printf '%s\\n' \"$out\"\nexit $rc\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(hostbin.SetDirsForTest([]string{bin})) // Sentinel takes git only from system dirs
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("SENTINEL_TEST_INIT", sub)
	if got := TopLevel(context.Background(), deep); got != repo {
		t.Fatalf("first: TopLevel = %q, want %s (git's answer as it read)", got, repo)
	}
	t.Setenv("SENTINEL_TEST_INIT", "")
	if got := TopLevel(context.Background(), deep); got != sub {
		t.Fatalf("after the repository appeared: TopLevel = %q, want %s", got, sub)
	}
}

// mustTopLevelKey is topLevelKey(dir), which the test needs taken.
func mustTopLevelKey(t *testing.T, dir string) string {
	t.Helper()
	key, keyed := topLevelKey(dir)
	if !keyed {
		t.Fatalf("no top level key for %s", dir)
	}
	return key
}
