//go:build unix

package hardgit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// The git Sentinel runs on the host is the system's: a `git` that the
// project (node_modules/.bin, a direnv bin) or anything else puts first on
// PATH never runs, and git still answers (31.3).
func TestRunsTheSystemsGitNotPATHs(t *testing.T) {
	project := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran-on-host")
	bin := filepath.Join(project, "node_modules", ".bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\ntouch '"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	out, err := Git{Dir: project}.Run(context.Background(), "init", "-q", project)
	if err != nil {
		t.Fatalf("git init through hardgit: %v %s", err, out)
	}
	if _, err := (Git{Dir: project}).Run(context.Background(), "status", "--porcelain"); err != nil {
		t.Fatalf("git status: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the git found first on PATH ran on the host")
	}
	if _, err := os.Stat(filepath.Join(project, ".git", "HEAD")); err != nil {
		t.Errorf("the system's git did not run: %v", err)
	}
}
