package gitdir

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A directory the walk cannot list (chmod 311: git still finds a .git in
// it by name) is named in Unlisted, not passed over as empty.
func TestScanTreeNamesWhatItCannotList(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	if err := os.MkdirAll(filepath.Join(src, "x", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	readDir = func(dir string) ([]os.DirEntry, error) {
		if dir == src {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: fs.ErrPermission}
		}
		return os.ReadDir(dir)
	}
	t.Cleanup(func() { readDir = os.ReadDir })
	sc, err := ScanTree(root, "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sc.Unlisted, []string{src}) {
		t.Errorf("Unlisted = %q, want %q", sc.Unlisted, src)
	}
}
