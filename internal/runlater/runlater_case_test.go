package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Only the git dir is passed over: on a case-sensitive file system a
// directory named .GIT is an ordinary one (git does not read it), so it
// or what runs later inside it is found (runlater.toml names .git/ in any
// case); a symbolic link under
// a run-later name is found as itself, and Target names its file.
func TestFindLooksInACaseVariantOfGit(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".git/x/.envrc", ".GIT/w/.envrc", "env.sh"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("env.sh", filepath.Join(root, ".envrc")); err != nil {
		t.Fatal(err)
	}
	caseSensitive := true
	if _, err := os.Stat(filepath.Join(root, ".Git")); err == nil {
		caseSensitive = false
	}
	got, err := Find(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(got, filepath.Join(root, ".git", "x", ".envrc")) {
		t.Errorf("Find walked the git dir: %q", got)
	}
	if caseSensitive && !slices.Contains(got, filepath.Join(root, ".GIT", "w", ".envrc")) && !slices.Contains(got, filepath.Join(root, ".GIT")) {
		t.Errorf("Find passed over .GIT, an ordinary directory here: %q", got)
	}
	if !slices.Contains(got, filepath.Join(root, ".envrc")) {
		t.Errorf("Find passed over a link named .envrc: %q", got)
	}
	if tg, ok := Target(filepath.Join(root, ".envrc")); !ok || filepath.Base(tg) != "env.sh" {
		t.Errorf("Target = %q, %v", tg, ok)
	}
}
