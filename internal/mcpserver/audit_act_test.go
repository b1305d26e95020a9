//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// Every destructive file operation (edit, delete, recursive delete, move
// and copy over a file) is journaled before it acts, with where what it
// destroys will be kept; its result line follows, naming the same backup.
func TestDestructiveCallsAreJournaledBeforeTheyAct(t *testing.T) {
	f := newFixture(t)
	cs, srv := session(t, mustConfig(t, f.config("")), Options{})
	write(t, filepath.Join(f.rw, "a.txt"), "a\n")
	write(t, filepath.Join(f.rw, "b.txt"), "b\n")
	write(t, filepath.Join(f.rw, "c.txt"), "c\n")
	write(t, filepath.Join(f.rw, "tree", "x.txt"), "x\n")
	if err := os.Mkdir(filepath.Join(f.rw, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		tool   string
		args   map[string]any
		target string
		backup bool
	}{
		{"edit", map[string]any{"path": filepath.Join(f.rw, "notes.txt"), "content": "new\n"}, filepath.Join(f.rw, "notes.txt"), true},
		{"delete", map[string]any{"path": filepath.Join(f.rw, "config.json")}, filepath.Join(f.rw, "config.json"), true},
		{"delete", map[string]any{"path": filepath.Join(f.rw, "tree"), "recursive": true}, filepath.Join(f.rw, "tree"), true},
		{"delete", map[string]any{"path": filepath.Join(f.rw, "empty")}, filepath.Join(f.rw, "empty"), false},
		{"move", map[string]any{"from": filepath.Join(f.rw, "a.txt"), "to": filepath.Join(f.rw, "b.txt"), "overwrite": true}, filepath.Join(f.rw, "b.txt"), true},
		{"copy", map[string]any{"from": filepath.Join(f.rw, "b.txt"), "to": filepath.Join(f.rw, "c.txt"), "overwrite": true}, filepath.Join(f.rw, "c.txt"), true},
	}
	for _, c := range calls {
		mustAllow(t, cs, c.tool, c.args)
	}
	evs, err := journal.ReadFile(srv.AuditPath())
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	var pending *Act
	for _, ev := range evs {
		if act, ok := AsAct(ev); ok {
			pending = &act
			continue
		}
		call, ok := AsCall(ev)
		if !ok {
			continue
		}
		if i >= len(calls) {
			t.Fatalf("more calls journaled than made: %+v", call)
		}
		want := calls[i]
		i++
		if pending == nil || pending.Tool != want.tool || pending.Path != want.target {
			t.Fatalf("%s %s: no \"about to act\" line before its result (got %+v)", want.tool, want.target, pending)
		}
		if want.backup && (pending.Backup == "" || pending.Backup != call.Backup) {
			t.Errorf("%s %s: the line before names backup %q, the result %q", want.tool, want.target, pending.Backup, call.Backup)
		}
		if want.backup {
			if _, err := os.Lstat(pending.Backup); err != nil {
				t.Errorf("%s: the backup it named is not there: %v", want.tool, err)
			}
		}
		pending = nil
	}
	if i != len(calls) {
		t.Fatalf("%d of %d calls journaled", i, len(calls))
	}
}
