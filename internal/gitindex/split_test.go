package gitindex

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A command marks a changed file skip-worktree and splits the index
// (h/ipatk8): the index file then holds none of the entries, so the marks
// (and stat records) read from it miss the one that hides the change.
// Whole reads it with the shared part merged in, leaving the index as it
// is; Unsplit has git write it whole, after which the file's own entries
// carry the mark.
func TestASplitIndexIsReadWhole(t *testing.T) {
	r := t.TempDir()
	gitT(t, r, "init", "-q")
	for _, p := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(r, p), []byte(p), 0o644)
	}
	gitT(t, r, "add", ".")
	gitT(t, r, "commit", "-qm", "one")
	gitT(t, r, "update-index", "--skip-worktree", "a")
	gitT(t, r, "update-index", "--split-index")
	gd := filepath.Join(r, ".git")
	b, err := Read(gd)
	if err != nil {
		t.Fatal(err)
	}
	if !Split(b) {
		t.Fatal("git did not split the index")
	}
	w, err := Whole(context.Background(), gd, b)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Marks(w); err != nil || m["a"] != Skip {
		t.Errorf("the whole index's marks: %v %v; want a skip-worktree", m, err)
	}
	if now, _ := Read(gd); !Split(now) {
		t.Error("Whole changed the index")
	}
	split, err := Unsplit(context.Background(), gd)
	if err != nil || !split {
		t.Fatalf("Unsplit: %v %v", split, err)
	}
	now, err := Read(gd)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Marks(now); Split(now) || err != nil || m["a"] != Skip {
		t.Errorf("after Unsplit: split %v, marks %v %v", Split(now), m, err)
	}
}
