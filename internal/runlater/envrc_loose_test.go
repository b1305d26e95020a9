package runlater

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// An .envrc that names what it loads through a variable, a command's
// output or eval (h/ipfix12): its own assignments and $(pwd) are read
// (source_env "$DIR/tools/x.sh", F=.env.secret; source_env $F), a name
// with a part only running it tells stands for every file it could be
// ("$HOME/lib/y.sh" for any lib/y.sh, source_up "${N}.shared" for any
// *.shared above), a program it runs or gives an interpreter is loaded,
// and a name that is nothing but such parts (eval) stands for every
// .env*-like file in its tree. Find, a Tree and LoadedBy (for a file that
// does not exist yet too) hold them; a file none of these names is not.
func TestEnvrcNamesThroughVariablesAreFollowed(t *testing.T) {
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
	mk(".envrc", `DIR=$(pwd)
F=.env.secret
source_env "$DIR/tools/x.sh"
source_env $F
source_env_if_exists "$HOME/lib/y.sh"
eval "$(lorri direnv)"
./bin/setup --quiet
bash -e scripts/boot.sh
watch_file notes.txt
`)
	mk("web/.envrc", `source_up "${N}.shared"`+"\n")
	for _, f := range []string{"tools/x.sh", ".env.secret", "lib/y.sh", "bin/setup", "scripts/boot.sh", "web/.env.local", "common.shared", "plain.sh", "notes.txt", "web/other.sh"} {
		mk(f, "x")
	}
	want := []string{".env.secret", ".envrc", "bin/setup", "common.shared", "lib/y.sh", "scripts/boot.sh", "tools/x.sh", "web/.env.local", "web/.envrc"}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return slices.Compact(out)
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
	for _, f := range []string{".env.coder", "sub/.envrc-extra", "tools/x.sh", "lib/y.sh"} {
		if _, ok := LoadedBy(root, filepath.Join(root, f)); !ok {
			t.Errorf("LoadedBy: %s, which the .envrc may load, is not held", f)
		}
	}
	for _, f := range []string{"plain.sh", "notes.txt", "web/other.sh"} {
		if e, ok := LoadedBy(root, filepath.Join(root, f)); ok {
			t.Errorf("LoadedBy: %s is held (by %s), though no .envrc names it", f, e)
		}
	}
}
