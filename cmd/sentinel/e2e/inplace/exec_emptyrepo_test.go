package inplace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// Issue 31: sentinel exec in a folder holding a repository with no commit
// yet (a fresh `git init app`) refuses in one clear line naming the
// repository and the fix, not git's "'app/' does not have a commit checked
// out"; nothing in the folder changes, and after the fix the run works.
func TestExecInAFolderHoldingAnEmptyRepository(t *testing.T) {
	t.Parallel()
	home, work := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+home, "NO_COLOR=1")
	app := filepath.Join(work, "app")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", app, "-c", "user.name=P", "-c", "user.email=p@p"}, args...)...)
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	if b, err := exec.Command("git", "init", "-q", app).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, b)
	}
	e2etest.WriteFile(t, filepath.Join(app, "a.txt"), "the person's work\n")
	before := listTree(t, work)
	run := func() (string, error) {
		cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", "echo coder > coder.txt")
		cmd.Dir, cmd.Env = work, env
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	out, err := run()
	if err == nil {
		t.Fatalf("sentinel exec ran in a folder holding an empty repository:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 || !strings.Contains(out, app+" is a git repository with no commit yet") || !strings.Contains(out, "git -C app commit") || strings.Contains(out, "does not have a commit checked out") {
		t.Errorf("want one line naming %s and the fix, got:\n%s", app, out)
	}
	if after := listTree(t, work); !slices.Equal(before, after) {
		t.Errorf("the refused run changed the folder:\nbefore %q\nafter  %q", before, after)
	}
	if b, _ := os.ReadFile(filepath.Join(app, "a.txt")); string(b) != "the person's work\n" {
		t.Errorf("a.txt is now %q", b)
	}
	git("commit", "-q", "--allow-empty", "-m", "first commit")
	if out, err := run(); err != nil {
		t.Fatalf("after the first commit, sentinel exec still fails: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(work, "coder.txt")); err != nil {
		t.Errorf("the run after the fix did not act: %v", err)
	}
}

// listTree is every path under dir with its mode and size, outside git
// dirs' contents (git itself may touch those on a read) and Sentinel's own
// .sentinel (the run's record).
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir() && fi.Name() == ".sentinel":
			return filepath.SkipDir
		case fi.IsDir() && fi.Name() == ".git":
			out = append(out, p)
			return filepath.SkipDir
		case fi.IsDir():
			out = append(out, p)
		default:
			out = append(out, fmt.Sprintf("%s %s %d", p, fi.Mode(), fi.Size()))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
