package runlater

import (
	"os"
	"path/filepath"
	"testing"
)

// PATH_add bin (and path_add PATH tools) puts a directory of the project
// first on the person's PATH at every cd: a program there runs in place of
// the system's of that name (git, ls, make), and a changed existing one
// (bin/rails) runs the coder's code. ipatk11 and ipatk12 left such changes
// unflagged; the directories are read from the .envrc.
func TestEnvrcPathAddDirsAreOnThePath(t *testing.T) {
	root := t.TempDir()
	envrc := filepath.Join(root, ".envrc")
	if err := os.WriteFile(envrc, []byte("PATH_add bin\npath_add PATH tools/bin\npath_add PYTHONPATH lib\nD=scripts\nPATH_add $D\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := ReadEnvrc(root, envrc)
	for _, p := range []string{"bin/rails", "tools/bin/git", "scripts/x"} {
		if _, ok := r.OnPath(filepath.Join(root, filepath.FromSlash(p))); !ok {
			t.Errorf("%s: not seen on the PATH the .envrc sets (%v)", p, r.PathDirs)
		}
	}
	for _, p := range []string{"lib/x.py", "bin/sub/y", "src/main.go", "bin"} {
		if d, ok := r.OnPath(filepath.Join(root, filepath.FromSlash(p))); ok {
			t.Errorf("%s: seen on the PATH through %s", p, d)
		}
	}
}
