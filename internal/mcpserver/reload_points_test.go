//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// An rw path a reload adds is the person's as much as one there at the
// start: a writing call there is preceded by a point (sentinel undo can
// put it back), and a repository a command makes there is quarantined.
func TestAReloadedRWPathIsCheckpointedAndSwept(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	added := filepath.Join(filepath.Dir(f.rw), "added")
	write(t, filepath.Join(added, "keep.txt"), "the person's\n")
	file := filepath.Join(t.TempDir(), "mcp.toml")
	one := "exec_mode = \"unrestricted\"\n[[paths]]\npath = \"" + f.rw + "\"\naccess = \"rw\"\n"
	write(t, file, one)
	cfg, err := LoadConfig(file)
	if err != nil {
		t.Fatal(err)
	}
	cs, srv := stdioSession(t, cfg, Options{Helper: bin, Warn: &lockedBuf{}})
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(f.rw, "notes.txt"), "content": "one\n"})
	write(t, file, one+"[[paths]]\npath = \""+added+"\"\naccess = \"rw\"\n")
	if err := srv.Reload(); err != nil {
		t.Fatal(err)
	}
	mustAllow(t, cs, "edit", map[string]any{"path": filepath.Join(added, "keep.txt"), "content": "the call's\n"})
	s, err := checkpoint.Open(added)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.Record(srv.runID)
	if err != nil || len(rec.Points) != 1 {
		t.Fatalf("no point before the call in the rw path the reload added: %v %+v", err, rec)
	}
	m, err := s.Manifest(srv.runID, rec.Points[0].Manifest)
	if e, ok := m.Get("keep.txt"); err != nil || !ok || e.Size != int64(len("the person's\n")) {
		t.Errorf("the point does not hold keep.txt as it was: %v %+v", err, e)
	}
	got := mustAllow(t, cs, "exec", map[string]any{"command": "cd " + added + " && git init -q made && echo done"})
	if !strings.Contains(got, "quarantined a git dir this command made, "+filepath.Join(added, "made", ".git")) {
		t.Errorf("a repository made in the added rw path is not quarantined:\n%s", got)
	}
	if _, err := os.Lstat(filepath.Join(added, "made", ".git")); err == nil {
		t.Error("the repository is still in the added rw path")
	}
}
