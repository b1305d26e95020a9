//go:build unix

package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// gitConfig adds key = value to the config of the repository at dir.
func gitConfig(t *testing.T, dir, key, value string) {
	t.Helper()
	if out, err := exec.Command("git", "-C", dir, "config", "--add", key, value).CombinedOutput(); err != nil {
		t.Fatalf("git config %s: %v\n%s", key, err, out)
	}
}

// A repository nested in an rw path — there when the server started, or
// made by the person later — sends git to the files its config includes
// and the hooks directory it names, and has git run the programs it names
// as paths (a filter, the person's global pager), as the rw path's own
// repository does:
// the file tools refuse each of them, and a symbolic link on the way to
// an included file, as they refuse the rw path's own.
func TestFileToolsRefuseANestedRepositorysConfigIncludes(t *testing.T) {
	f := newFixture(t)
	gitInit(t, f.rw)
	lib := filepath.Join(f.rw, "vendor", "lib")
	gitInit(t, lib)
	gitConfig(t, lib, "include.path", "../../../team.gitconfig")
	gitConfig(t, lib, "includeIf.gitdir:**/vendor/lib/.path", "../../../conf/other.gitconfig")
	gitConfig(t, lib, "core.hooksPath", "../../tools/hk")
	os.MkdirAll(filepath.Join(f.rw, "real"), 0o755)
	write(t, filepath.Join(f.rw, "real", "linked.gitconfig"), "")
	if err := os.Symlink("real", filepath.Join(f.rw, "cfgdir")); err != nil {
		t.Fatal(err)
	}
	gitConfig(t, lib, "include.path", "../../../cfgdir/linked.gitconfig")
	os.MkdirAll(filepath.Join(f.rw, "other"), 0o755)
	if err := os.Symlink("other", filepath.Join(f.rw, "decoy")); err != nil {
		t.Fatal(err)
	}
	gitConfig(t, lib, "filter.crypt.smudge", "../../scripts/smudge %f")
	// The person's own global config names a pager in their home, which
	// lies in the rw path.
	home := filepath.Join(f.rw, "home")
	t.Setenv("HOME", home)
	write(t, filepath.Join(home, ".gitconfig"), "[core]\n\tpager = ~/bin/pg -R\n")
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	evil := "[core]\n\tfsmonitor = touch /tmp/pwned\n"
	for _, p := range []string{
		filepath.Join(f.rw, "team.gitconfig"),
		filepath.Join(f.rw, "conf", "other.gitconfig"),
		filepath.Join(f.rw, "tools", "hk", "pre-commit"),
		filepath.Join(f.rw, "cfgdir", "linked.gitconfig"),
		filepath.Join(f.rw, "scripts", "smudge"),
		filepath.Join(home, "bin", "pg"),
	} {
		mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": evil}, ClassReadOnlyPath)
	}
	// Re-pointing the link on the way would make git read another file.
	mustRefuse(t, cs, "move", map[string]any{"from": filepath.Join(f.rw, "decoy"), "to": filepath.Join(f.rw, "cfgdir"), "overwrite": true}, ClassReadOnlyPath)
	mustRefuse(t, cs, "delete", map[string]any{"path": filepath.Join(f.rw, "cfgdir")}, ClassReadOnlyPath)
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "free.txt"), "content": "ok\n"})

	// A repository the person makes while the server runs is looked at
	// before the next write.
	includeFreshness = 0
	t.Cleanup(func() { includeFreshness = 10 })
	late := filepath.Join(f.rw, "late")
	gitInit(t, late)
	gitConfig(t, late, "include.path", "../../later.gitconfig")
	gitConfig(t, late, "core.hooksPath", "../late-hooks")
	mustRefuse(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "later.gitconfig"), "content": evil}, ClassReadOnlyPath)
	mustRefuse(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "late-hooks", "post-checkout"), "content": "#!/bin/sh\ntouch /tmp/pwned\n"}, ClassReadOnlyPath)
}
