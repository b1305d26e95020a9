package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// `sentinel undo` with no id undoes the newest in-place record of the
// place, a `sentinel mcp` server's (kind "mcp") as an exec run's.
func TestUndoWithoutAnIDTakesTheNewestMCPRecord(t *testing.T) {
	t.Parallel()

	p, c, _ := inPlaceFixture(t)
	if _, _, err := c.end(nil, noEmit); err != nil {
		t.Fatal(err)
	}
	s, err := checkpoint.Open(p.Root)
	if err != nil {
		t.Fatal(err)
	}
	before, err := checkpoint.Take(s, p.Root, checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(p.Root, "notes.md")); err != nil {
		t.Fatal(err)
	}
	after, err := checkpoint.Take(s, p.Root, checkpoint.Options{Prev: before})
	if err != nil {
		t.Fatal(err)
	}
	rec := &checkpoint.Record{ID: "mcp-20261205-230000-1", Kind: "mcp", Place: p.Root, Started: time.Now().Add(time.Minute).UTC(), HasAfter: true}
	for which, m := range map[string]*checkpoint.Manifest{"before": before, "after": after} {
		if err := s.SaveManifest(rec.ID, which, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveRecord(rec); err != nil {
		t.Fatal(err)
	}
	rep, err := Undo(context.Background(), p, "", UndoOptions{})
	if err != nil || rep.Undone.ID != rec.ID {
		t.Fatalf("undo took %+v (%v), want the mcp record", rep, err)
	}
	if b, _ := os.ReadFile(filepath.Join(p.Root, "notes.md")); string(b) != "the person's notes\n" {
		t.Fatalf("notes.md not put back: %q", b)
	}
}
