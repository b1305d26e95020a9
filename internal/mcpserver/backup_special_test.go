//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A delete that must copy its backup (another file system) does not
// remove a pipe it cannot keep: the whole delete is refused and nothing
// of the tree is gone.
func TestDeleteKeepsWhatItCannotBackUp(t *testing.T) {
	eachLayer(t, func(t *testing.T) {
		f := newFixture(t)
		write(t, filepath.Join(f.rw, "dist", "x.js"), "X\n")
		if err := unix.Mkfifo(filepath.Join(f.rw, "dist", "pipe"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := renameAside
		renameAside = func(fileLayer, dirFS, string, dirFS, string) error { return errCrossDir }
		defer func() { renameAside = old }()
		cs, _ := session(t, mustConfig(t, f.config("")), Options{})
		text, isErr := call(t, cs, "delete", map[string]any{"path": f.rw + "/dist", "recursive": true})
		if !isErr || !strings.Contains(text, "cannot be kept") {
			t.Errorf("a delete of a tree with a pipe in it: %v %s", isErr, text)
		}
		for _, p := range []string{"dist/x.js", "dist/pipe"} {
			if _, err := os.Lstat(filepath.Join(f.rw, p)); err != nil {
				t.Errorf("%s is gone though nothing was kept of it: %v", p, err)
			}
		}
	})
}
