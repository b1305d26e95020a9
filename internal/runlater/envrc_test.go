package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An allowed .envrc loads other files (source_env_if_exists, dotenv,
// source_up, `. FILE`); direnv re-checks only the .envrc, so each of
// them runs on cd with no new direnv allow (h/ipatk8). Find and a Tree
// hold each file an .envrc names inside the place; one outside it, one
// named through a variable, and a file no .envrc names are not held.
func TestFilesAnEnvrcLoadsRunLater(t *testing.T) {
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
	mk(".envrc", `# the person's
source_env_if_exists local/dev.sh
dotenv "config/dev env"
[ -f x ] && . ./scripts/setup.sh ; source tools/more.sh
source_env ../outside.sh
source_env "$HOME/x.sh"
watch_file notes.txt
`)
	mk("web/.envrc", "source_up shared.sh\ndotenv_if_exists\n")
	for _, f := range []string{"local/dev.sh", "config/dev env", "scripts/setup.sh", "tools/more.sh", "shared.sh", "web/.env", "notes.txt", "plain.sh"} {
		mk(f, "x")
	}
	want := []string{".envrc", "config/dev env", "local/dev.sh", "scripts/setup.sh", "shared.sh", "tools/more.sh", "web/.env", "web/.envrc"}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	got, err := Find(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rel(got), want) {
		t.Errorf("Find: %q, want %q", rel(got), want)
	}
	tgot, _, err := NewTree(root, nil).Refresh()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rel(tgot), want) {
		t.Errorf("Tree: %q, want %q", rel(tgot), want)
	}
}
