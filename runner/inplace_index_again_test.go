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

// An end whose index is byte for byte the start's, with nothing changed
// and no stat record forged, has no staged change to report and starts no
// git (neither list of entries, nor the work tree's record); with a path
// changed, or the index changed, git reads them. The ctx is cancelled, so
// any git started fails.
func TestStagedChangesStartNoGitWhenNothingMoved(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}} {
		if args[0] == "add" {
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := (gitCmd{dir: dir}).run(context.Background(), args...); err != nil {
			t.Fatal(err)
		}
	}
	git := filepath.Join(dir, ".git")
	w := &Workspace{Dir: dir, Shadow: filepath.Join(t.TempDir(), "shadow.git"), project: &Project{Root: dir, GitDir: git}}
	if _, err := (gitCmd{dir: dir}).run(context.Background(), "init", "-q", "--bare", w.Shadow); err != nil {
		t.Fatal(err)
	}
	if err := w.recordIndex(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if st, err := w.stagedChanges(ctx, nil, nil); err != nil || st != nil {
		t.Fatalf("nothing moved: %v, %v; want nothing and no git", st, err)
	}
	if _, err := w.stagedChanges(ctx, []string{"a.txt"}, nil); err == nil {
		t.Error("a changed path: no error under a cancelled ctx; want the entries read by git")
	}
	if _, err := w.stagedChanges(ctx, nil, []string{"a.txt"}); err == nil {
		t.Error("a forged stat record: no error under a cancelled ctx; want the entries read by git")
	}
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (gitCmd{dir: dir}).run(context.Background(), "add", "b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.stagedChanges(ctx, nil, nil); err == nil {
		t.Error("a changed index: no error under a cancelled ctx; want it read by git")
	}
	if st, err := w.stagedChanges(context.Background(), nil, nil); err != nil || len(st) != 1 || st[0].Path != "b.txt" {
		t.Errorf("a changed index: %v, %v; want b.txt staged", st, err)
	}
}
