package inside

import (
	"os"
	"path/filepath"
	"testing"
)

// mountPoints makes directories as os.MkdirAll would, files beside them,
// and forgets what it knew below a path once something is mounted there.
func TestMountPointsMakeWhatMountsLandOn(t *testing.T) {
	root := t.TempDir()
	mp := mountPoints{root: true}
	deep := filepath.Join(root, "usr", "local", "go", "bin")
	if err := mp.dir(deep); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(deep); err != nil || !st.IsDir() {
		t.Fatalf("%s was not made: %v", deep, err)
	}
	if err := mp.ensure(mountOp{kind: mountBindRO}, filepath.Join(root, "etc", "hosts")); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(root, "etc", "hosts")); err != nil || !st.Mode().IsRegular() {
		t.Fatalf("the file mount point was not made: %v", err)
	}
	// A file on the way is an error, as with os.MkdirAll.
	if err := mp.dir(filepath.Join(root, "etc", "hosts", "x")); err == nil {
		t.Error("a directory was made below a file")
	}
	// A link on the way is followed, as with os.MkdirAll.
	os.Symlink("usr/local", filepath.Join(root, "loc"))
	if err := mp.dir(filepath.Join(root, "loc", "share")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "usr", "local", "share")); err != nil {
		t.Errorf("the link was not followed: %v", err)
	}
	// What a mount covers is no longer known: here the directories below
	// usr go away, as they would under an empty mount.
	os.RemoveAll(filepath.Join(root, "usr", "local"))
	mp.covered(filepath.Join(root, "usr"))
	if err := mp.dir(filepath.Join(root, "usr", "local", "go", "src")); err != nil {
		t.Fatalf("after a mount over usr: %v", err)
	}
}
