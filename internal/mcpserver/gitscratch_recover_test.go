//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A server that died while a command ran leaves the command's objects in
// its scratch dir (its commit may be on the person's branch already): the
// next server's start proves and moves them in and removes the dir; a
// live server's scratch dir is left alone.
func TestDeadServersScratchObjectsAreMovedIn(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	root := t.TempDir()
	gitInit(t, root)
	dead := &gitGuard{}
	if _, err := dead.protect(root); err != nil {
		t.Fatal(err)
	}
	scratch, env, err := dead.openScratch(nil)
	if err != nil || scratch == "" {
		t.Fatalf("scratch: %q %v", scratch, err)
	}
	h := exec.Command("git", "hash-object", "-w", "--stdin")
	h.Dir, h.Env, h.Stdin = root, append(os.Environ(), env...), strings.NewReader("committed as the server died\n")
	out, err := h.CombinedOutput()
	if err != nil {
		t.Fatalf("hash-object: %v %s", err, out)
	}
	id := strings.TrimSpace(string(out))
	dead.lock.Close() // the server is gone: its lock with it
	live := &gitGuard{}
	if _, err := live.protect(root); err != nil {
		t.Fatal(err)
	}
	liveScratch, _, err := live.openScratch(nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("git", "-C", root, "cat-file", "-p", id).CombinedOutput(); err != nil || string(b) != "committed as the server died\n" {
		t.Errorf("the dead server's object is not in the person's store: %v %s", err, b)
	}
	if _, err := os.Lstat(filepath.Dir(scratch)); err == nil {
		t.Error("the dead server's scratch dir is still there")
	}
	// A third server leaves the live one's scratch dir alone.
	runtime.GC() // what a loaded machine may do here
	third := &gitGuard{}
	if _, err := third.protect(root); err != nil {
		t.Fatal(err)
	}
	if _, _, err := third.openScratch(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(liveScratch); err != nil {
		t.Errorf("a live server's scratch dir was taken: %v", err)
	}
	// live is a running server until here: unreferenced, the collector
	// could finalize its lock file, close it and free the lock early.
	runtime.KeepAlive(live)
}
