package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The person renames the place after an in-place run: undo in the new
// name found no checkpoint and said "nothing to undo" (h/ipatk14); it now
// says the place records the run and where its checkpoint is kept.
func TestUndoInAMovedPlaceSaysWhereTheCheckpointIs(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	writeTestFile(t, filepath.Join(p.Root, "main.go"), "package coder\n")
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	if err := writeMeta(p.RunDir(c.rec.ID), &Meta{ID: c.rec.ID, Status: StatusDone, InPlace: true, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	moved := p.Root + "-renamed"
	if err := os.Rename(p.Root, moved); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(moved) })
	_, err := Undo(context.Background(), &Project{Root: moved}, "", UndoOptions{})
	if err == nil || !strings.Contains(err.Error(), c.rec.ID) || !strings.Contains(err.Error(), "move it back") {
		t.Fatalf("undo in the renamed place: %v; want it to name run %s and the move", err, c.rec.ID)
	}
}
