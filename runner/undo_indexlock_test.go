package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Undo puts the index back under git's own lock: while a git command of
// the person holds index.lock (it will rename its new index over the old
// one when done), undo refuses rather than write an index that git then
// overwrites, or overwrite what git just staged; and it leaves no lock
// behind when it writes.
func TestUndoIndexTakesGitsIndexLock(t *testing.T) {
	t.Parallel()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	os.WriteFile(filepath.Join(root, "a"), []byte("a\n"), 0o644)
	gitRun(t, root, "add", "a")
	gd := filepath.Join(root, ".git")
	was, err := readGitIndex(gd)
	if err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(gd, "index.lock")
	if err := os.WriteFile(lock, []byte("the person's git at work"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = replaceIndex(gd, was, []byte{})
	if err == nil || !strings.Contains(err.Error(), "index.lock") {
		t.Errorf("undo wrote the index while a git command held index.lock: %v", err)
	}
	if now, _ := readGitIndex(gd); !bytes.Equal(now, was) {
		t.Errorf("the index changed under the person's git command")
	}
	if b, _ := os.ReadFile(lock); string(b) != "the person's git at work" {
		t.Errorf("the person's lock was touched: %q", b)
	}
	os.Remove(lock)
	if err := replaceIndex(gd, was, was); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Errorf("undo left index.lock behind")
	}
}
