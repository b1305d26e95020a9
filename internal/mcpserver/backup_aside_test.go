//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
)

// When the backup has to be copied (another file system), what another
// process writes at the path while the copy is made is not lost with the
// entry: the entry is renamed aside first, and only that is removed.
func TestCopiedBackupLosesNothingWrittenMeanwhile(t *testing.T) {
	eachLayer(t, testCopiedBackupLosesNothingWrittenMeanwhile)
}

func testCopiedBackupLosesNothingWrittenMeanwhile(t *testing.T) {
	f := newFixture(t)
	p := filepath.Join(f.rw, "draft.txt")
	write(t, p, "old\n")
	oldRename, oldHook := renameAside, afterBackupCopy
	renameAside = func(fileLayer, dirFS, string, dirFS, string) error { return errCrossDir }
	afterBackupCopy = func() {
		if err := os.WriteFile(p, []byte("new\n"), 0o644); err != nil {
			t.Errorf("another process's write: %v", err)
		}
	}
	defer func() { renameAside, afterBackupCopy = oldRename, oldHook }()
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	b := backupIn(t, mustAllow(t, cs, "delete", map[string]any{"path": p}))
	if got := readOr(b); got != "old\n" {
		t.Errorf("the backup holds %q", got)
	}
	if got := readOr(p); got != "new\n" {
		t.Errorf("what another process wrote meanwhile is %q, lost", got)
	}
	ents, _ := os.ReadDir(f.rw)
	for _, e := range ents {
		if len(e.Name()) > 15 && e.Name()[:15] == ".sentinel-aside" {
			t.Errorf("the aside entry %s was left", e.Name())
		}
	}
}
