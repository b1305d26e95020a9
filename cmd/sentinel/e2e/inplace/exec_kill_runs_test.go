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
// person's branch on a commit whose objects are only in the run's scratch
// dir. The next `sentinel runs` (and `sentinel show`) in that repository
// must not say "no commits yet": the project finder recovers the objects
// itself, lists the run as interrupted, and the repository is whole (31).
func TestRunsAfterAKilledExecDoesNotSayNoCommits(t *testing.T) {
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
	probe := exec.Command("git", "cat-file", "-e", "HEAD^{commit}")
	probe.Dir = dir
	if probe.Run() == nil { // the coder was still asleep: the run cannot have moved them in
		t.Fatal("the fixture is not broken: the killed run's commit is already in the repository")
	}
	r := e2etest.Sentinel(t, dir, env, "runs")
	if r.Code != 0 || strings.Contains(r.Stderr, "no commits") {
		t.Fatalf("sentinel runs after the kill: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stdout, "interrupted") {
		t.Errorf("sentinel runs does not list the killed exec as interrupted:\n%s", r.Stdout)
	}
	if got := e2etest.Git(t, dir, "log", "-1", "--format=%s"); got != "coder" {
		t.Errorf("the coder's commit is not readable after sentinel runs: %q", got)
	}
	fsck := exec.Command("git", "fsck", "--connectivity-only", "--no-dangling")
	fsck.Dir = dir
	if out, err := fsck.CombinedOutput(); err != nil {
		t.Errorf("the repository still misses objects: %v\n%s", err, out)
	}
}
