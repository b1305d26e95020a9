//go:build unix

package gitdir

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/internal/testuser"
)

// A command running as the person's user makes a directory unlistable
// (mkdir -m 311 hid) and builds a repository inside it: git finds
// hid/lib/.git by name with search permission alone and runs its config.
// The sweep opens such a directory for its listing and finds the
// repository; the directory's mode is put back. One the caller keeps (the
// person's own, unlistable at the start) stays unlisted. As root every
// directory lists: the test runs as the unprivileged CI user.
func TestScanSeesIntoADirectoryMadeUnlistable(t *testing.T) {
	if testuser.Rerun(t, testuser.CI) {
		return
	}
	root := t.TempDir()
	hid := filepath.Join(root, "hid")
	gd := filepath.Join(hid, "lib", ".git")
	for _, d := range []string{"objects", "refs/heads"} {
		if err := os.MkdirAll(filepath.Join(gd, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(gd, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(hid, 0o311); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(hid, 0o755) })

	sc, err := ScanTree(root, "", "", 100, OpenUnlisted(func(string) bool { return false }))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sc.Dirs, gd) {
		t.Errorf("the sweep did not find %s inside a directory made unlistable: dirs %v, unlisted %v", gd, sc.Dirs, sc.Unlisted)
	}
	if st, err := os.Stat(hid); err != nil || st.Mode().Perm() != 0o311 {
		t.Errorf("the directory's mode was not put back: %v %v", st.Mode(), err)
	}

	sc, err = ScanTree(root, "", "", 100, OpenUnlisted(func(d string) bool { return d == hid }))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sc.Unlisted, hid) || slices.Contains(sc.Dirs, gd) {
		t.Errorf("a directory the caller keeps was opened: dirs %v, unlisted %v", sc.Dirs, sc.Unlisted)
	}
}
