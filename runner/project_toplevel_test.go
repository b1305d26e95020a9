//go:build unix

package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// One git process answers the top level and the git dir; a folder whose
// name holds a newline (the answer is then more than two lines) is asked
// about each alone and still found, and a folder outside any repository
// is not one.
func TestTopLevelAndGitDirInOneAnswer(t *testing.T) {
	for _, name := range []string{"plain", "two\nlines"} {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
		if _, err := (gitCmd{dir: dir}).run(context.Background(), "init", "-q"); err != nil {
			t.Fatal(err)
		}
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			t.Fatal(err)
		}
		root, gitDir, inRepo, err := topLevelAndGitDir(context.Background(), gitCmd{dir: filepath.Join(dir, "sub")})
		if !inRepo || err != nil || root != real || gitDir != filepath.Join(real, ".git") {
			t.Errorf("%q: root %q, git dir %q, in repo %v, %v; want %q and its .git", name, root, gitDir, inRepo, err, real)
		}
	}
	if _, _, inRepo, _ := topLevelAndGitDir(context.Background(), gitCmd{dir: "/"}); inRepo {
		t.Error("/ is in a repository")
	}
}
