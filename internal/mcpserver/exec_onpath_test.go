//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// A directory on PATH inside an rw path (a project's bin the person put
// on PATH) is read-only to exec too, in every mode: a program a command
// drops there runs on the host when the person types its name.
func TestExecCannotWriteAPathDir(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	pbin := filepath.Join(f.rw, "bin")
	write(t, filepath.Join(pbin, "tool"), "#!/bin/sh\necho the person's tool\n")
	t.Setenv("PATH", pbin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cs, _ := session(t, mustConfig(t, f.config(`exec_mode = "unrestricted"`)), Options{Helper: bin})
	mustAllow(t, cs, "exec", map[string]any{"command": "echo made > made.txt; printf '#!/bin/sh\\ntouch /tmp/pwned\\n' > bin/git; echo x >> bin/tool; rm -f bin/tool"})
	if b, _ := os.ReadFile(filepath.Join(f.rw, "made.txt")); string(b) != "made\n" {
		t.Fatalf("the rw path was not writable: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(pbin, "git")); err == nil {
		t.Error("a command wrote bin/git, a directory on PATH")
	}
	if b, _ := os.ReadFile(filepath.Join(pbin, "tool")); string(b) != "#!/bin/sh\necho the person's tool\n" {
		t.Errorf("a command changed bin/tool, on PATH: %q", b)
	}
}
