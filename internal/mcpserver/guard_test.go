//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// A configured path that holds credentials (the home directory, say) still
// does not show them, and an rw path's git hooks and config stay read-only
// for the file tools as the sandbox keeps them for commands.
func TestGuardsInsideConfiguredPaths(t *testing.T) {
	f := newFixture(t)
	home := filepath.Join(filepath.Dir(f.rw), "home")
	write(t, filepath.Join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n")
	write(t, filepath.Join(home, "notes.md"), "fine\n")
	t.Setenv("HOME", home)
	write(t, filepath.Join(f.rw, ".git", "config"), "[core]\n")
	os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(f.rw, "keys"))
	cs, _ := session(t, mustConfig(t, f.config(`[[paths]]
path = "`+home+`"
access = "r"
`)), Options{})
	mustAllow(t, cs, "read", map[string]any{"path": home + "/notes.md"})
	mustRefuse(t, cs, "read", map[string]any{"path": home + "/.ssh/id_ed25519"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "read", map[string]any{"path": f.rw + "/keys/id_ed25519"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "list", map[string]any{"path": home + "/.ssh"}, ClassPathNotAllowed)
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/.git/config", "content": "[core]\nfsmonitor = evil\n"}, ClassReadOnlyPath)
	mustRefuse(t, cs, "edit", map[string]any{"path": f.rw + "/.git/hooks/pre-commit", "content": "#!/bin/sh\nevil\n"}, ClassReadOnlyPath)
	mustRefuse(t, cs, "delete", map[string]any{"path": f.rw + "/.git/config"}, ClassReadOnlyPath)
	mustRefuse(t, cs, "copy", map[string]any{"from": f.rw + "/notes.txt", "to": f.rw + "/.git/hooks/post-checkout"}, ClassReadOnlyPath)
	mustAllow(t, cs, "read", map[string]any{"path": f.rw + "/.git/config"})
	if b, _ := os.ReadFile(f.rw + "/.git/config"); string(b) != "[core]\n" {
		t.Fatal(".git/config was written")
	}
}
