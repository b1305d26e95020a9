package runner

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// An end index byte for byte the start's lists the start's entries
// without a git start (stagedEntriesAgain); one that differs is read by
// git. The ctx is cancelled, so any git started fails.
func TestStagedEntriesAgainSkipsGitForAnUnchangedIndex(t *testing.T) {
	dir := t.TempDir()
	w := &Workspace{Dir: dir, Shadow: filepath.Join(dir, "shadow.git")}
	start, end := filepath.Join(dir, "start"), filepath.Join(dir, "end")
	if err := os.WriteFile(start, []byte("DIRC index bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(end, []byte("DIRC index bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	entries := map[string]string{"a.go": "100644 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"}
	got, err := w.stagedEntriesAgain(ctx, end, start, entries)
	if err != nil || !maps.Equal(got, entries) {
		t.Fatalf("unchanged index: %v, %v; want the start's entries and no git", got, err)
	}
	got["b.go"] = "x"
	if _, ok := entries["b.go"]; ok {
		t.Error("the answer shares the start's map: a change to one changes the other")
	}
	if err := os.WriteFile(end, []byte("DIRC other bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.stagedEntriesAgain(ctx, end, start, entries); err == nil {
		t.Error("changed index: no error under a cancelled ctx; want it read by git")
	}
}
