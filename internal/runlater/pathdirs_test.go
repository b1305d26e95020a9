package runlater

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The folders of a place on the person's PATH: an absolute entry in it
// (through a symlink too), a relative entry (any folder of that name), the
// current folder, and what an .envrc puts there (PATH_add, path_add PATH,
// export PATH=, through its variables too); a folder no entry names is not
// (path_add PYTHONPATH lib puts lib on another variable).
func TestOnPathFindsTheFoldersOfAPlaceOnPath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bin", "tools", "web/scripts", "sub/.local/bin", "lib", "sub/bin2", "scripts"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(t.TempDir(), "proj")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	envrc := filepath.Join(root, ".envrc")
	if err := os.WriteFile(envrc, []byte("PATH_add tools\npath_add PATH web/scripts\nexport PATH=\"$PWD/sub/.local/bin:$PATH\"\npath_add PYTHONPATH lib\nD=scripts\nPATH_add $D\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "sub", ".envrc")
	if err := os.WriteFile(sub, []byte("PATH_add bin2 # a comment\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := OnPath(root, strings.Join([]string{"/usr/bin", link + "/bin", "./node_modules/.bin"}, string(os.PathListSeparator)), []string{envrc, sub})
	for file, want := range map[string]string{
		"bin/make":                   "your PATH has " + link + "/bin",
		"web/node_modules/.bin/jest": `relative entry "./node_modules/.bin"`,
		"node_modules/.bin/jest":     `relative entry "./node_modules/.bin"`,
		"tools/fmt":                  "your .envrc puts it on PATH",
		"web/scripts/deploy":         "your .envrc puts it on PATH",
		"sub/.local/bin/git":         "your .envrc puts it on PATH",
		"sub/bin2/ls":                "your sub/.envrc puts it on PATH",
		"scripts/x":                  "your .envrc puts it on PATH", // through a variable
		"lib/x.sh":                   "",
		"main.go":                    "",
		"bin/sub/x":                  "",
	} {
		if got := d.Why(file); want == "" && got != "" || !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", file, got, want)
		}
	}
	if got := OnPath(root, "/usr/bin"+string(os.PathListSeparator), nil).Why("lib/x.sh"); !strings.Contains(got, "the current folder") {
		t.Errorf("an empty PATH entry (the current folder) does not reach every folder: %q", got)
	}
}
