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
// unflagged; the directories are read from the .envrc, variables included
// (OnPath, pathdirs.go).
func TestEnvrcPathAddDirsAreOnThePath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	envrc := filepath.Join(root, ".envrc")
	if err := os.WriteFile(envrc, []byte("PATH_add bin\npath_add PATH tools/bin\npath_add PYTHONPATH lib\nD=scripts\nPATH_add $D\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bin", "tools/bin", "scripts", "lib", "bin/sub", "src"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d := OnPath(root, "", []string{envrc})
	for _, p := range []string{"bin/rails", "tools/bin/git", "scripts/x"} {
		if d.Why(p) == "" {
			t.Errorf("%s: not seen on the PATH the .envrc sets (%+v)", p, d)
		}
	}
	for _, p := range []string{"lib/x.py", "bin/sub/y", "src/main.go"} {
		if how := d.Why(p); how != "" {
			t.Errorf("%s: seen on the PATH (%s)", p, how)
		}
	}
}
