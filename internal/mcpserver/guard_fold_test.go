//go:build unix

package mcpserver

import (
	"path/filepath"
	"testing"
)

// On a file system that folds case (macOS's, a casefolded ext4 directory)
// "TEAM.GITCONFIG" is the file the repository's config includes, and
// "tools/HK" its hooks directory: the file tools refuse every spelling a
// file system may take for a protected file, as they refuse the file.
func TestFileToolsRefuseEverySpellingOfAProtectedFile(t *testing.T) {
	t.Parallel()
	f, targets := includedRepo(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	evil := "[core]\n\tfsmonitor = touch /tmp/pwned\n"
	for _, p := range []string{
		filepath.Join(f.rw, "TEAM.GITCONFIG"),
		filepath.Join(f.rw, "te\u200cam.gitconfig"),
		filepath.Join(f.rw, "Conf", "Other.gitconfig"),
		filepath.Join(f.rw, "tools", "HK", "pre-commit"),
		filepath.Join(f.rw, "TOOLS", "FSMON.SH"),
	} {
		mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": evil}, ClassReadOnlyPath)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "team.txt"), "content": "ok\n"})
	_ = targets
}

// So for a credential location Sentinel hides: ~/.SSH is ~/.ssh there.
func TestFileToolsHideEverySpellingOfACredentialLocation(t *testing.T) {
	f := newFixture(t)
	home := filepath.Join(f.rw, "home")
	t.Setenv("HOME", home)
	write(t, filepath.Join(home, ".SSH", "id_ed25519"), "KEY\n")
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	mustRefuse(t, cs, "read", map[string]any{"path": filepath.Join(home, ".SSH", "id_ed25519")}, ClassPathNotAllowed)
	mustRefuse(t, cs, "read", map[string]any{"path": filepath.Join(home, ".s\u200dsh", "id_ed25519")}, ClassPathNotAllowed)
}
