package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// The person's LD_LIBRARY_PATH has an empty entry (the working directory)
// and the project holds a file named like a library git links, as a coder
// can leave one: the git Sentinel starts on the host in the project must
// not load it. Without main's hostbin.KeepLoaderOutOfTheWorkingDir, git
// fails to start on the planted file and `sentinel runs` says the project
// is not a repository (with a real library there, its code ran as the
// person at the end of `sentinel exec`).
func TestHostGitInTheProjectLoadsNoLibraryFromIt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("glibc's loader")
	}
	dir := e2etest.ScratchRepo(t)
	for _, lib := range []string{"libz.so.1", "libpcre2-8.so.0"} {
		if err := os.WriteFile(filepath.Join(dir, lib), []byte("planted"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := e2etest.Sentinel(t, dir, []string{"LD_LIBRARY_PATH=:/nonexistent", "HOME=" + t.TempDir()}, "runs")
	if r.Code != 0 || strings.Contains(r.Stderr, "not inside a git repository") {
		t.Fatalf("sentinel runs with LD_LIBRARY_PATH=:/nonexistent in a project holding libz.so.1: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
