package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// A `sentinel exec` killed with -9 after its coder committed leaves the
// commit on the person's branch and its objects in the run's scratch
// object dir; the next in-place command (here another `sentinel exec`)
// proves and moves them in, so the repository is whole again (31.1).
func TestKilledExecLeavesNoMissingObjects(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	env := append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "HOME="+t.TempDir(), "NO_COLOR=1")
	script := "echo coder > coder.txt && git add coder.txt && git -c user.name=c -c user.email=c@c commit -qm coder && touch committed && exec sleep 600"
	cmd := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	deadline := time.Now().Add(3 * time.Minute) // a hang bound, not a timing
	for {
		if _, err := os.Stat(filepath.Join(dir, "committed")); err == nil {
			break
		}
		select {
		case <-done:
			t.Fatal("sentinel exec ended before its coder committed")
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the coder never committed")
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-done
	fsck := func() (string, error) {
		c := exec.Command("git", "fsck", "--connectivity-only", "--no-dangling")
		c.Dir = dir
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if _, err := fsck(); err == nil {
		t.Fatal("the killed run's objects were already in the repository (killed after its end): nothing here tests their recovery")
	}
	next := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/true")
	next.Dir, next.Env = dir, env
	out, err := next.CombinedOutput()
	if err != nil {
		t.Fatalf("the next sentinel exec: %v\n%s", err, out)
	}
	if out, err := fsck(); err != nil {
		t.Errorf("after the next command the repository still misses objects: %v\n%s", err, out)
	}
	if got := e2etest.Git(t, dir, "log", "-1", "--format=%s"); got != "coder" || !strings.Contains(e2etest.Git(t, dir, "show", "HEAD:coder.txt"), "coder") {
		t.Errorf("the coder's commit is not readable: %q", got)
	}
}
