//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// The file tools take every spelling a file system takes for .git (and
// for HEAD) as that name: on HFS+ ".g\u200cit" is .git, on NTFS ".git."
// and "GIT~1" are; writing one, or in one, is refused as .git is, and so
// is a "HEAD." that would complete a git dir.
func TestFileToolsRefuseEverySpellingOfGit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	for _, n := range []string{".g\u200cit", ".git.", ".git ", "GIT~1", ".git::$INDEX_ALLOCATION", "\ufeff.GIT"} {
		p := filepath.Join(f.rw, n)
		mustRefuse(t, cs, "edit", map[string]any{"path": p, "content": "gitdir: ../planted\n"}, ClassReadOnlyPath)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		mustRefuse(t, cs, "edit", map[string]any{"path": filepath.Join(p, "config"), "content": "[core]\n\tfsmonitor = touch /tmp/pwned\n"}, ClassReadOnlyPath)
		mustRefuse(t, cs, "move", map[string]any{"from": filepath.Join(f.rw, "notes.txt"), "to": filepath.Join(p, "hooks")}, ClassReadOnlyPath)
	}
	g := filepath.Join(f.rw, "g")
	for _, d := range []string{"objects", "refs"} {
		os.MkdirAll(filepath.Join(g, d), 0o755)
	}
	for _, n := range []string{"HEAD.", "H\u200dEAD", "head"} {
		mustRefuse(t, cs, "edit", map[string]any{"path": filepath.Join(g, n), "content": "ref: refs/heads/main\n"}, ClassReadOnlyPath)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, ".gitignore"), "content": "x\n"})
}
