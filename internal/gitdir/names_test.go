package gitdir

import (
	"os"
	"path/filepath"
	"testing"
)

// Every spelling a file system takes for .git is .git; names that only
// begin with it are not.
func TestIsDotGitTakesEverySpelling(t *testing.T) {
	for _, n := range []string{".git", ".GIT", ".Git", ".g\u200cit", "\ufeff.git", ".git\u200d", ".git.", ".git ", ".git. .", ".git::$INDEX_ALLOCATION", ".GIT:stream", "GIT~1", "git~1."} {
		if !IsDotGit(n) {
			t.Errorf("%q is not taken for .git", n)
		}
	}
	for _, n := range []string{".gitignore", ".git.bak", "git", ".gi", "x.git", ".gitmodules", ":.git", "git~2", ""} {
		if IsDotGit(n) {
			t.Errorf("%q is taken for .git", n)
		}
	}
	if !NameIs("HEAD.", "HEAD") || !NameIs("h\u200cead", "HEAD") || NameIs("HEADS", "HEAD") {
		t.Error("NameIs does not match HEAD's spellings alone")
	}
}

// ScanTree finds a .git spelt another way, as git on that file system
// would find it.
func TestScanTreeFindsEverySpellingOfGit(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a/.g\u200cit", "b/.GIT.", "c/GIT~1"} {
		if err := os.MkdirAll(filepath.Join(root, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sc, err := ScanTree(root, "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Dirs) != 3 {
		t.Errorf("found %q, want the three", sc.Dirs)
	}
}
