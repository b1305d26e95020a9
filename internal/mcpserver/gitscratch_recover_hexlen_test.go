//go:build unix

package mcpserver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A left scratch dir's record of stores is a file in the temp dir: its
// object format is not believed. One that says this server's SHA-1
// repository takes 64-digit names does not get a SHA-256 object moved in.
func TestDeadScratchsClaimedObjectFormatIsNotBelieved(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("TMPDIR", t.TempDir())
	root, sha256Repo := t.TempDir(), t.TempDir()
	gitInit(t, root)
	if out, err := exec.Command("git", "init", "-q", "--object-format=sha256", sha256Repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	h := exec.Command("git", "hash-object", "-w", "--stdin")
	h.Dir, h.Stdin = sha256Repo, strings.NewReader("a SHA-256 object\n")
	out, err := h.CombinedOutput()
	if err != nil {
		t.Fatalf("hash-object: %v %s", err, out)
	}
	id := strings.TrimSpace(string(out))
	dead := &gitGuard{}
	if _, err := dead.protect(root); err != nil {
		t.Fatal(err)
	}
	scratch, _, err := dead.openScratch(nil)
	if err != nil || scratch == "" || len(dead.stores) != 1 || dead.stores[0].HexLen != 40 {
		t.Fatalf("scratch: %q %v %+v", scratch, err, dead.stores)
	}
	loose := filepath.Join(id[:2], id[2:])
	b, err := os.ReadFile(filepath.Join(sha256Repo, ".git", "objects", loose))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(scratch, id[:2]), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(scratch, loose), b, 0o444); err != nil {
		t.Fatal(err)
	}
	// Another local process rewrites the record: the person's SHA-1
	// repository "takes 64-digit names".
	claim := dead.stores
	claim[0].HexLen = 64
	if b, err = json.Marshal(claim); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(scratch), "stores"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	dead.lock.Close()
	live := &gitGuard{}
	if _, err := live.protect(root); err != nil {
		t.Fatal(err)
	}
	if _, _, err := live.openScratch(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, ".git", "objects", loose)); err == nil {
		t.Error("a SHA-256 object was moved into the person's SHA-1 repository: the record's object format was believed")
	}
}
