package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner"
)

// TestExecRefusesHomeRootAndStateHolders: exec (and so a shim) started in
// the home directory, in /, or in a folder that holds Sentinel's state
// stops before anything is made, with one line that says what is wrong and
// what to do, instead of the sandbox's "its source … is inside the
// writable …".
func TestExecRefusesHomeRootAndStateHolders(t *testing.T) {
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	work := filepath.Join(tmp, "work")
	for _, d := range []string{filepath.Join(home, "sub"), filepath.Join(work, "state"), filepath.Join(tmp, "proj")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("XDG_STATE_HOME", "")
	f := execFlags{sandbox: "auto", timeout: defaultApprovalTimeout, plain: true}
	try := func(dir, want string) {
		t.Helper()
		err := startExec(context.Background(), f, []string{"true"}, dir)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "cd into a project folder") || strings.Contains(err.Error(), "\n") {
			t.Errorf("exec in %s: %v; want one line with %q and the fix", dir, err, want)
		}
	}
	try(home, "your home directory ("+home+") is not a project")
	// / through the check alone: an exec there without it would walk and
	// record the whole machine.
	if err := runner.CheckInPlaceRoot("/"); err == nil || !strings.Contains(err.Error(), "the root of the file system (/) is not a project") {
		t.Errorf("exec in /: %v; want it refused", err)
	}
	// A home that is a repository (dotfiles): its top level is the home.
	if out, err := exec.Command("git", "init", "-q", home).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	try(filepath.Join(home, "sub"), "your home directory")
	t.Setenv("XDG_STATE_HOME", filepath.Join(work, "state"))
	try(work, work+" holds Sentinel's own state ("+filepath.Join(work, "state", "sentinel")+")")
	if err := runner.CheckInPlaceRoot(filepath.Join(tmp, "proj")); err != nil {
		t.Errorf("a plain project folder is refused: %v", err)
	}
}
