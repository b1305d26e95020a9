package gitincludes

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Under WithMemo a config's includes are listed once: the launch asks
// Files, Programs and HooksDirs about one moment, and each listing is a
// git start. Without it every call lists again. Not parallel: it sets HOME.
func TestMemoListsIncludesOnce(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	repo := filepath.Join(home, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	cfg := filepath.Join(repo, ".git", "config")
	base, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	include := func(name string) {
		t.Helper()
		s := string(base) + "[include]\n\tpath = " + filepath.Join(repo, name) + "\n"
		if err := os.WriteFile(cfg, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots := []string{repo}
	gitDirs := []string{filepath.Join(repo, ".git")}
	include("first.inc")
	ctx := WithMemo(context.Background())
	files, _ := Files(ctx, repo, gitDirs, roots)
	fresh, _ := Files(context.Background(), repo, gitDirs, roots)
	if !slices.Equal(files, fresh) || !slices.Contains(files, filepath.Join(repo, "first.inc")) {
		t.Fatalf("Files under the memo = %q, without = %q; want both to hold first.inc", files, fresh)
	}
	// The config changes behind the memo: its answer is the first listing
	// (one git start served both), a fresh ctx sees the change.
	include("second.inc")
	again, _ := Files(ctx, repo, gitDirs, roots)
	if !slices.Equal(again, files) {
		t.Errorf("Files under the memo after the config changed = %q, want the memo's %q (listed once)", again, files)
	}
	now, _ := Files(context.Background(), repo, gitDirs, roots)
	if !slices.Contains(now, filepath.Join(repo, "second.inc")) {
		t.Errorf("Files without the memo = %q, want second.inc (listed again)", now)
	}
}
