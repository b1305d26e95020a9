//go:build linux

package gitrest

import (
	"os"
	"path/filepath"
	"testing"
)

// Past the content budget (a git dir with a large lfs/ store), a file of
// the rest is stamped without its content: a change of the same size
// whose modification time the coder set back (touch -r) still reads
// differently, as does one moved over it.
func TestGitRestStampPastTheBudgetSeesASameSizeRewrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "obj")
	if err := os.WriteFile(p, []byte("the person's content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stamp := func() string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Name() == "obj" {
				left := int64(0)
				return stamp(p, e, &left)
			}
		}
		t.Fatal("obj is gone")
		return ""
	}
	before := stamp()
	fi, _ := os.Stat(p)
	if err := os.WriteFile(p, []byte("the coder's content!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if now := stamp(); now == before {
		t.Errorf("a same-size rewrite with its time set back reads the same: %s", now)
	}
	// Moved over it from a copy made with the same time.
	tmp := filepath.Join(dir, "x")
	os.WriteFile(tmp, []byte("the coder's content?\n"), 0o644)
	os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
	mid := stamp()
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	if now := stamp(); now == mid {
		t.Errorf("a file moved over it reads the same: %s", now)
	}
}
