//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A left scratch dir is moved only into this server's own rw
// repositories: its record of stores is a file in the temp dir, and one
// naming another repository is left where it is.
func TestDeadScratchNamingAnotherRepositoryIsLeft(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	other, root := t.TempDir(), t.TempDir()
	gitInit(t, other)
	gitInit(t, root)
	dead := &gitGuard{}
	if _, err := dead.protect(other); err != nil {
		t.Fatal(err)
	}
	scratch, env, err := dead.openScratch(nil)
	if err != nil || scratch == "" {
		t.Fatalf("scratch: %q %v", scratch, err)
	}
	h := exec.Command("git", "hash-object", "-w", "--stdin")
	h.Dir, h.Env, h.Stdin = other, append(os.Environ(), env...), strings.NewReader("for another repository\n")
	out, err := h.CombinedOutput()
	if err != nil {
		t.Fatalf("hash-object: %v %s", err, out)
	}
	id := strings.TrimSpace(string(out))
	dead.lock.Close()
	live := &gitGuard{}
	if _, err := live.protect(root); err != nil {
		t.Fatal(err)
	}
	if _, _, err := live.openScratch(nil); err != nil {
		t.Fatal(err)
	}
	if err := exec.Command("git", "-C", other, "cat-file", "-e", id).Run(); err == nil {
		t.Error("a server moved objects into a repository that is not one of its own")
	}
	if _, err := os.Lstat(scratch); err != nil {
		t.Errorf("the other server's scratch dir was taken: %v", err)
	}
}
