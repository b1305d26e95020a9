package inplace

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// One in-place run acts on a place at a time: while a `sentinel exec`
// works in a repository, a second one there (spelled through a symlink),
// one in a repository nested in it, and `sentinel undo` there each refuse
// at once with one line naming the live run (its id, pid and start) and
// how to end it; once it has ended, the second exec runs.
func TestASecondInPlaceRunInAPlaceIsRefused(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	nested := filepath.Join(dir, "vendor", "lib")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	e2etest.Git(t, nested, "init", "-q")
	e2etest.Git(t, nested, "commit", "-q", "--allow-empty", "-m", "first")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "NO_COLOR=1"}
	first := exec.Command(e2etest.Bin, "exec", "--plain", "--", "/bin/sh", "-c", "touch started; while [ ! -e stop ]; do sleep 0.1; done; rm -f started stop")
	first.Dir, first.Env = dir, append(os.Environ(), env...)
	var out e2etest.SyncBuffer
	first.Stdout, first.Stderr = &out, &out
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var ended atomic.Bool
	go func() { err := first.Wait(); ended.Store(true); done <- err }()
	defer func() {
		e2etest.WriteFile(t, filepath.Join(dir, "stop"), "")
		<-done
	}()
	e2etest.Eventually(t, "the first exec's program started", func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil || ended.Load()
	}, out.String)
	if ended.Load() {
		t.Fatalf("the first exec ended before its program started:\n%s", out.String())
	}
	id := e2etest.LastRun(t, dir)
	pid := strconv.Itoa(first.Process.Pid)
	for _, where := range []string{link, nested} {
		r := e2etest.Sentinel(t, where, env, "exec", "--plain", "--", "/bin/sh", "-c", "touch second-ran")
		msg := strings.TrimSpace(r.Stderr)
		if r.Code == 0 || strings.Contains(msg, "\n") {
			t.Fatalf("a second exec in %s: exit %d, want one line of refusal:\n%s%s", where, r.Code, r.Stdout, r.Stderr)
		}
		for _, want := range []string{id, "pid " + pid, "started ", "wait for it to end", "kill " + pid} {
			if !strings.Contains(msg, want) {
				t.Errorf("the refusal in %s does not say %q: %s", where, want, msg)
			}
		}
		if _, err := os.Stat(filepath.Join(where, "second-ran")); err == nil {
			t.Fatalf("the second exec in %s ran its program", where)
		}
	}
	r := e2etest.Sentinel(t, dir, env, "undo")
	if r.Code == 0 || !strings.Contains(r.Stderr, id) || !strings.Contains(r.Stderr, "pid "+pid) {
		t.Fatalf("sentinel undo during the run: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	e2etest.WriteFile(t, filepath.Join(dir, "stop"), "")
	if err := <-done; err != nil {
		t.Fatalf("the first exec: %v\n%s", err, out.String())
	}
	done <- nil
	r = e2etest.Sentinel(t, nested, env, "exec", "--plain", "--", "/bin/sh", "-c", "touch second-ran")
	if r.Code != 0 {
		t.Fatalf("the second exec after the first ended: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
}
