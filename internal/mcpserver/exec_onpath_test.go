//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
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

// A relative entry on the server's PATH (".", "bin", an empty one) is not
// on the PATH of exec's commands (ipatk13m row 1: with "." on PATH and
// only ls allowed, a client's ./ls written by the edit tool ran as ls).
func TestExecFindsNoProgramThroughARelativePathEntry(t *testing.T) {
	bin := helper(t)
	f := newFixture(t)
	for _, p := range []string{"ls", "bin/ls", "cat"} {
		write(t, filepath.Join(f.rw, p), "#!/bin/sh\necho CLIENT-PROGRAM\n")
		if err := os.Chmod(filepath.Join(f.rw, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sep := string(os.PathListSeparator)
	t.Setenv("PATH", "."+sep+"bin"+sep+sep+os.Getenv("PATH"))
	cs, _ := session(t, mustConfig(t, f.config("")), Options{Helper: bin})
	for _, line := range []string{"ls", "cat notes.txt"} {
		if got := mustAllow(t, cs, "exec", map[string]any{"command": line}); strings.Contains(got, "CLIENT-PROGRAM") {
			t.Errorf("%s ran the client's program through a relative PATH entry: %s", line, got)
		}
	}
}
