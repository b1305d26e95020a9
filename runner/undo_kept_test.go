package runner

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// An undo that keeps the person's later work records what it kept
// (h/ipfix12); once the person makes each kept path as it was before the
// run, a second undo has nothing left to put back, and the run is then
// undone (by the first undo), its kept list emptied: `sentinel undo
// --list` no longer shows it partly undone or undoable.
func TestASecondUndoWithNothingLeftFinishesAPartlyUndoneRun(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	for f, body := range map[string]string{"main.go": "package coder\n", "notes.md": "the coder's\n", "made.txt": "x\n"} {
		writeTestFile(t, filepath.Join(p.Root, f), body)
	}
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "notes.md"} {
		writeTestFile(t, filepath.Join(p.Root, f), "the person's later edit\n")
	}
	first, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{})
	if err != nil || len(first.Changed) != 2 {
		t.Fatalf("first undo: %+v %v", first, err)
	}
	s, err := checkpoint.Open(p.Root)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := s.Record(c.rec.ID)
	if err != nil || rec.UndoneBy != "" || !slices.Equal(rec.Kept, []string{"main.go", "notes.md"}) {
		t.Fatalf("after the first undo the record is %+v (%v), want it kept main.go and notes.md", rec, err)
	}
	writeTestFile(t, filepath.Join(p.Root, "main.go"), "package main\n")
	writeTestFile(t, filepath.Join(p.Root, "notes.md"), "the person's notes\n")
	second, err := Undo(context.Background(), p, c.rec.ID, UndoOptions{})
	if err != nil || len(second.Steps) != 0 || len(second.Changed) != 0 {
		t.Fatalf("second undo: %+v %v", second, err)
	}
	rec, err = s.Record(c.rec.ID)
	if err != nil || rec.UndoneBy != first.ID || len(rec.Kept) != 0 {
		t.Fatalf("after the second undo the record is %+v (%v), want it undone by %s with nothing kept", rec, err, first.ID)
	}
}
