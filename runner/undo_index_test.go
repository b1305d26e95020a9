package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// undoIndex puts the index back only when it is as the run left it: an
// index the person changed since is refused and left alone.
func TestUndoIndexRefusesAnIndexChangedSince(t *testing.T) {
	root := t.TempDir()
	gitDir := filepath.Join(root, ".git")
	os.MkdirAll(gitDir, 0o755)
	s, err := checkpoint.OpenIn(t.TempDir(), root)
	if err != nil {
		t.Fatal(err)
	}
	const id = "20261206-010203-abcdef"
	index := filepath.Join(gitDir, "index")
	for _, step := range []struct{ content, which string }{{"start", indexBefore}, {"coder", indexAfter}} {
		os.WriteFile(index, []byte(step.content), 0o644)
		if err := saveIndex(s, id, gitDir, step.which); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(index, []byte("person"), 0o644)
	if _, err := undoIndex(s, id, gitDir, false); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Fatalf("an index changed since the run was not refused: %v", err)
	}
	if b, _ := os.ReadFile(index); string(b) != "person" {
		t.Fatalf("the refused undo changed the index: %q", b)
	}
	os.WriteFile(index, []byte("coder"), 0o644)
	if did, err := undoIndex(s, id, gitDir, false); err != nil || !did {
		t.Fatalf("undo of the index: %v %v", did, err)
	}
	if b, _ := os.ReadFile(index); string(b) != "start" {
		t.Fatalf("the index is %q, not as it was before the run", b)
	}
}
