//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Prune keeps every blob a point before a single tool call names, not only
// those of a record's before and after: undo --to N needs them.
func TestPruneKeepsThePointsBlobs(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "only at point 1\n", 0o644)
	s := newStore(t, root)
	m := take(t, s, root, Options{})
	e, ok := m.Get("a.txt")
	if !ok || e.Hash == "" {
		t.Fatalf("a.txt not stored: %+v", e)
	}
	empty := &Manifest{}
	if err := s.SaveManifest("run1", "before", empty); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveManifest("run1", "call-1", m); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveRecord(&Record{ID: "run1", Kind: "exec", Place: root, Started: time.Now(), Points: []Point{{N: 1, Manifest: "call-1"}}}); err != nil {
		t.Fatal(err)
	}
	blob := s.blobPath(e.Hash)
	old := time.Now().Add(-2 * blobGrace)
	if err := os.Chtimes(blob, old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(DefaultKeep); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(blob); err != nil {
		t.Errorf("the blob point 1 names was pruned: %v", err)
	}
	// And one no manifest names goes (the prune works at all).
	if err := os.Remove(filepath.Join(s.Dir, "run1", "call-1.json")); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(DefaultKeep); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(blob); err == nil {
		t.Error("a blob no manifest names was kept")
	}
}
