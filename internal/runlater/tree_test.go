package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// A Tree answers as Find does after every kind of change — a file made,
// one removed, a link re-pointed, a directory renamed or replaced, a
// matching directory made deep down — and reads only the directories
// that changed (its clock set far ahead, so that no change time is too
// close to trust).
func TestTreeFindsWhatFindFindsReadingOnlyWhatChanged(t *testing.T) {
	root := t.TempDir()
	mk := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"a/b/c/x.go", "a/b/d/y.go", "web/.envrc", "node_modules/.bin/jest", "node_modules/jest/bin/jest.js", ".venv/bin/python3", ".venv/bin/activate", ".git/hooks/pre-commit", "skipped/.envrc"} {
		mk(f, "x")
	}
	skip := func(p string) bool { return p == filepath.Join(root, "skipped") }
	tr := NewTree(root, skip)
	tr.now = func() time.Time { return time.Now().Add(time.Hour) }
	check := func(step string) int {
		t.Helper()
		got, envs, err := tr.Refresh()
		if err != nil {
			t.Fatal(err)
		}
		want, err := Find(root, skip)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: Tree = %q, Find = %q", step, got, want)
		}
		slices.Sort(envs)
		if w := []string{filepath.Join(root, ".venv", "bin"), filepath.Join(root, "node_modules", ".bin")}; !slices.Equal(envs, w) {
			t.Errorf("%s: envs = %q, want %q", step, envs, w)
		}
		return tr.Reads
	}
	check("first")
	if n := check("unchanged"); n != 0 {
		t.Errorf("an unchanged tree read %d directories", n)
	}
	mk("a/b/c/.envrc", "made")
	if n := check("made deep"); n != 1 {
		t.Errorf("one new file read %d directories, want 1", n)
	}
	os.Remove(filepath.Join(root, "web/.envrc"))
	os.Symlink("../a/b/d/y.go", filepath.Join(root, "web/.envrc"))
	check("replaced by a link")
	if err := os.Rename(filepath.Join(root, "a/b"), filepath.Join(root, "a/z")); err != nil {
		t.Fatal(err)
	}
	check("renamed")
	mk("a/z/d/.vscode/tasks.json", "{}")
	check("a matching directory made")
	os.RemoveAll(filepath.Join(root, "a/z/c"))
	mk("a/z/c/.github/workflows/ci.yml", "on: push")
	check("a directory replaced")
	if n := check("unchanged again"); n != 0 {
		t.Errorf("an unchanged tree read %d directories", n)
	}
}

// A directory changed within the racy window is read again every time:
// a coarse clock could give a later change the same time.
func TestTreeReadsARecentDirectoryAgain(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	tr := NewTree(root, nil)
	tr.Refresh()
	tr.Refresh()
	if tr.Reads == 0 {
		t.Error("a directory changed just now was trusted")
	}
}
