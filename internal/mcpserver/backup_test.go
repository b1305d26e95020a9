//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// backupIn is the backup path an answer names.
func backupIn(t *testing.T, answer string) string {
	t.Helper()
	const mark = "backup of what was there: "
	i := strings.Index(answer, mark)
	if i < 0 {
		t.Fatalf("the answer names no backup: %s", answer)
	}
	return strings.TrimSpace(answer[i+len(mark):])
}

func readOr(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// delete (a file, a symlink, a whole tree) and an overwriting copy or move
// keep what they destroy, named in the answer and in the audit, in the
// user's state dir.
func TestDestructiveOpsKeepABackup(t *testing.T) {
	t.Parallel()
	eachLayer(t, testDestructiveOpsKeepABackup)
}

func testDestructiveOpsKeepABackup(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.rw, "build", "a.txt"), "A\n")
	write(t, filepath.Join(f.rw, "build", "sub", "b.txt"), "B\n")
	write(t, filepath.Join(f.rw, "old.txt"), "OLD\n")
	write(t, filepath.Join(f.rw, "target.txt"), "TARGET\n")
	os.Symlink("notes.txt", filepath.Join(f.rw, "link"))
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})
	stateDir := os.Getenv("XDG_STATE_HOME")

	b := backupIn(t, mustAllow(t, cs, "delete", map[string]any{"path": f.rw + "/old.txt"}))
	if readOr(b) != "OLD\n" || !strings.HasPrefix(b, stateDir) {
		t.Errorf("the deleted file's backup %s = %q", b, readOr(b))
	}
	b = backupIn(t, mustAllow(t, cs, "delete", map[string]any{"path": f.rw + "/build", "recursive": true}))
	if readOr(b+"/a.txt") != "A\n" || readOr(b+"/sub/b.txt") != "B\n" {
		t.Errorf("the deleted tree's backup %s: %q %q", b, readOr(b+"/a.txt"), readOr(b+"/sub/b.txt"))
	}
	b = backupIn(t, mustAllow(t, cs, "delete", map[string]any{"path": f.rw + "/link"}))
	if target, err := os.Readlink(b); err != nil || target != "notes.txt" {
		t.Errorf("the deleted symlink's backup %s: %q %v", b, target, err)
	}
	b = backupIn(t, mustAllow(t, cs, "copy", map[string]any{"from": f.ro + "/app.log", "to": f.rw + "/target.txt", "overwrite": true}))
	if readOr(b) != "TARGET\n" || readOr(f.rw+"/target.txt") != "boot ok\nERROR disk full\n" {
		t.Errorf("copy over target.txt: backup %q, now %q", readOr(b), readOr(f.rw+"/target.txt"))
	}
	b = backupIn(t, mustAllow(t, cs, "move", map[string]any{"from": f.rw + "/notes.txt", "to": f.rw + "/target.txt", "overwrite": true}))
	if readOr(b) != "boot ok\nERROR disk full\n" || readOr(f.rw+"/target.txt") != "hello world\nsecond line\n" {
		t.Errorf("move over target.txt: backup %q, now %q", readOr(b), readOr(f.rw+"/target.txt"))
	}
	for _, p := range []string{"old.txt", "build", "link", "notes.txt"} {
		if _, err := os.Lstat(filepath.Join(f.rw, p)); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	n := 0
	for _, c := range auditCalls(t, srv) {
		if c.Backup != "" && c.Decision == DecisionAllow {
			n++
		}
	}
	if n != 5 {
		t.Errorf("the audit names %d backups, want 5", n)
	}
}

// Across file systems a deleted tree is copied into the backups, then
// removed; one too big to copy is refused and left as it was.
func TestDeleteAcrossFileSystemsCopiesItsBackup(t *testing.T) {
	eachLayer(t, testDeleteAcrossFileSystemsCopiesItsBackup)
}

func testDeleteAcrossFileSystemsCopiesItsBackup(t *testing.T) {
	f := newFixture(t)
	write(t, filepath.Join(f.rw, "dist", "x.js"), "X\n")
	write(t, filepath.Join(f.rw, "dist", "deep", "y.js"), "Y\n")
	os.Symlink("x.js", filepath.Join(f.rw, "dist", "z.js"))
	old := renameAside
	renameAside = func(fileLayer, dirFS, string, dirFS, string) error { return errCrossDir }
	defer func() { renameAside = old }()
	cs, _ := session(t, mustConfig(t, f.config("")), Options{})
	b := backupIn(t, mustAllow(t, cs, "delete", map[string]any{"path": f.rw + "/dist", "recursive": true}))
	if readOr(b+"/x.js") != "X\n" || readOr(b+"/deep/y.js") != "Y\n" {
		t.Errorf("the copied backup %s: %q %q", b, readOr(b+"/x.js"), readOr(b+"/deep/y.js"))
	}
	if target, _ := os.Readlink(b + "/z.js"); target != "x.js" {
		t.Errorf("the symlink in the backup: %q", target)
	}
	if _, err := os.Lstat(f.rw + "/dist"); err == nil {
		t.Error("dist is still there")
	}
	write(t, filepath.Join(f.rw, "big", "blob"), strings.Repeat("z", 4096))
	defer func(v int64) { maxBackupBytes = v }(maxBackupBytes)
	maxBackupBytes = 1024
	text, isErr := call(t, cs, "delete", map[string]any{"path": f.rw + "/big", "recursive": true})
	if !isErr || !strings.Contains(text, "too big") {
		t.Fatalf("a tree over the backup bound: %v %s", isErr, text)
	}
	if readOr(f.rw+"/big/blob") != strings.Repeat("z", 4096) {
		t.Error("the refused delete removed the file")
	}
	ents, _ := os.ReadDir(filepath.Dir(b))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), "_big") {
			t.Errorf("a partial backup was left: %s", e.Name())
		}
	}
}
