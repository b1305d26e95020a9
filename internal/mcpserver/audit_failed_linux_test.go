package mcpserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// breakJournalFD makes every later write to the open file at path fail, as
// a full disk does: its descriptor in this process is replaced by a
// read-only one of the same file.
func breakJournalFD(t *testing.T, path string) {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	ro, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	found := false
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil || fd == int(ro.Fd()) {
			continue
		}
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name())); err == nil && target == path {
			if err := syscall.Dup3(int(ro.Fd()), fd, syscall.O_CLOEXEC); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("no open descriptor of %s", path)
	}
}

// Once the audit journal cannot be written (a client that filled the disk
// the state dir is on), the server acts on nothing more: a call that
// would go unrecorded is not made. Before, each later call acted and only
// its answer said "this server stops answering".
func TestAServerWhoseAuditFailedActsOnNothingMore(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})
	notes := filepath.Join(f.rw, "notes.txt")
	mustAllow(t, cs, "edit", map[string]any{"path": notes, "content": "one\n"})
	breakJournalFD(t, srv.AuditPath())
	// This call is the one the failure is found on: its "about to act"
	// line cannot be written, so it does not act (before, it acted and
	// only its result line failed), and its answer says so.
	text, isErr := call(t, cs, "edit", map[string]any{"path": notes, "content": "two\n"})
	if b, _ := os.ReadFile(notes); string(b) != "one\n" {
		t.Fatalf("the edit acted although its \"about to act\" line could not be written: notes.txt is %q", b)
	}
	if !isErr || !strings.Contains(text, "audit journal failed") {
		t.Fatalf("the failed audit line is not told: (error=%v) %s", isErr, text)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"path": notes, "content": "three\n"}},
		{"delete", map[string]any{"path": filepath.Join(f.rw, "config.json")}},
		{"edit", map[string]any{"path": filepath.Join(f.rw, "new.txt"), "content": "x\n"}},
	} {
		text, isErr := call(t, cs, c.tool, c.args)
		if !isErr || !strings.Contains(text, "audit journal failed") {
			t.Errorf("%s after the audit failed: (error=%v) %s", c.tool, isErr, text)
		}
	}
	if b, _ := os.ReadFile(notes); string(b) != "one\n" {
		t.Errorf("an edit was made after the audit journal failed: notes.txt is %q", b)
	}
	if _, err := os.Stat(filepath.Join(f.rw, "config.json")); err != nil {
		t.Errorf("a delete was made after the audit journal failed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(f.rw, "new.txt")); err == nil {
		t.Error("a file was made after the audit journal failed")
	}
}
