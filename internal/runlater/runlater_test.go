package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFindListsWhatRunsLaterAndNothingElse(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".envrc", "web/.envrc", ".venv/bin/activate", ".venv/bin/python3", ".vscode/tasks.json",
		".github/workflows/ci.yml", ".cargo/config.toml", "src/main.go", "Makefile", ".git/hooks/pre-commit", "skipped/.envrc"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("src/main.go", filepath.Join(root, "sub.envrc")); err != nil {
		t.Fatal(err)
	}
	got, err := Find(root, func(p string) bool { return p == filepath.Join(root, "skipped") })
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		got[i] = strings.TrimPrefix(got[i], root+"/")
	}
	slices.Sort(got)
	want := []string{".cargo/config.toml", ".envrc", ".github/workflows", ".venv/bin/activate", ".vscode", "web/.envrc"}
	if !slices.Equal(got, want) {
		t.Errorf("Find = %q, want %q", got, want)
	}
}
