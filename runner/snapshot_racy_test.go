package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// editedInTheIndexSecond stages each file with its first content and then
// rewrites it with its second (the same size) in the second the index was
// written: the index's entry and the file agree on size and mtime, and
// only the index file's own mtime (no earlier than the entry's) tells git
// the entry is "racily clean" and the file must be read. The times are
// set, not waited for: the second is ten seconds ago, so anything that
// copies the index now gives the copy a later mtime. core.trustctime is
// off because rewriting a file sets its ctime to now, a second the index's
// entry may not share; within one real second it would.
func editedInTheIndexSecond(t *testing.T, dir string, files map[string][2]string) {
	t.Helper()
	gitT(t, dir, "config", "core.trustctime", "false")
	then := time.Now().Add(-10 * time.Second).Truncate(time.Second)
	var names []string
	for name, c := range files {
		if len(c[0]) != len(c[1]) {
			t.Fatal("the contents must have the same size")
		}
		full := filepath.Join(dir, name)
		write(t, full, c[0])
		if err := os.Chtimes(full, then, then); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	gitT(t, dir, append([]string{"add", "--"}, names...)...)
	for name, c := range files {
		full := filepath.Join(dir, name)
		f, err := os.OpenFile(full, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(c[1]); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if err := os.Chtimes(full, then, then); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(filepath.Join(dir, ".git", "index"), then, then); err != nil {
		t.Fatal(err)
	}
	// git itself, reading the index where it is, sees the edits.
	for _, name := range names {
		if out := gitT(t, dir, "diff", "--name-only", "--", name); out != name {
			t.Fatalf("git status does not see the racy edit of %s: %q", name, out)
		}
	}
}

// TestSnapshotHoldsAnEditMadeInTheIndexSecond: a file staged and then
// edited again, same size, within the second the index was written, is in
// the snapshot with the work tree's content, not the staged one — whether
// the snapshot comes from the changed paths or, where that path declines
// (core.fileMode off), from `git add -A` on a copy of the index.
func TestSnapshotHoldsAnEditMadeInTheIndexSecond(t *testing.T) {
	t.Parallel()
	for _, declined := range []bool{false, true} {
		name := "by changed paths"
		if declined {
			name = "by git add -A"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			gitT(t, dir, "init", "-q")
			write(t, filepath.Join(dir, "a.txt"), "a\n")
			gitT(t, dir, "add", "-A")
			gitT(t, dir, "commit", "-qm", "base")
			if declined {
				gitT(t, dir, "config", "core.fileMode", "false")
			}
			editedInTheIndexSecond(t, dir, map[string][2]string{"n.txt": {"n1\n", "n2\n"}, "a.txt": {"s\n", "w\n"}})
			p := snapshotProject(t, dir)
			if _, err := changedTree(ctx, gitCmd{dir: dir}, headOf(t, p), t.TempDir(), snapshotOptions{}); isUnusual(err) != declined {
				t.Fatalf("the quick path: %v", err)
			}
			index, _ := os.ReadFile(filepath.Join(p.GitDir, "index"))
			snap, err := TakeSnapshot(ctx, p, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{"n.txt": "n2\n", "a.txt": "w\n"} {
				if got := gitT(t, dir, "cat-file", "blob", snap.Commit+":"+name); got+"\n" != want {
					t.Errorf("%s in the snapshot: %q, the work tree has %q", name, got+"\n", want)
				}
			}
			if after, _ := os.ReadFile(filepath.Join(p.GitDir, "index")); string(after) != string(index) {
				t.Fatal("the person's index changed")
			}
		})
	}
}
