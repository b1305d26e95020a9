//go:build unix

package checkpoint

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Unchanged is the shortcut before a checkpoint on the hot path: it may
// say "the same" only when a full Take would record nothing Diff tells
// apart, and every change undo must be able to put back makes it say no —
// a rewrite that keeps size and mtime, a new or deleted entry, a mode, a
// symlink's target; what Take leaves out (the place's .sentinel, a skip
// dir, inside a .git) does not count. A file changed so shortly before the
// checkpoint that its stamp cannot be trusted is a no as well.
func TestUnchangedSeesEveryChangeUndoNeeds(t *testing.T) {
	base := func(t *testing.T) (root, skip string) {
		root, _ = filepath.EvalSymlinks(t.TempDir())
		write(t, root, "a.txt", "alpha\n", 0o644)
		write(t, root, "dir/b.txt", "bravo\n", 0o644)
		write(t, root, "run.sh", "#!/bin/sh\n", 0o755)
		write(t, root, ".git/config", "[core]\n", 0o644)
		write(t, root, ".sentinel/runs/x", "journal\n", 0o600)
		write(t, root, "cache/blob", "state\n", 0o600)
		must(t, os.Symlink("a.txt", filepath.Join(root, "link")))
		return root, filepath.Join(root, "cache")
	}
	cases := []struct {
		name   string
		change func(t *testing.T, root string)
		same   bool
	}{
		{"nothing", func(*testing.T, string) {}, true},
		{"the place's .sentinel", func(t *testing.T, root string) { write(t, root, ".sentinel/runs/y", "more\n", 0o600) }, true},
		{"a skip dir", func(t *testing.T, root string) { write(t, root, "cache/blob", "other\n", 0o600) }, true},
		{"inside .git", func(t *testing.T, root string) { write(t, root, ".git/config", "[core]\nfsmonitor=x\n", 0o644) }, true},
		{"a rewrite keeping size and mtime", func(t *testing.T, root string) {
			p := filepath.Join(root, "a.txt")
			st, err := os.Stat(p)
			must(t, err)
			must(t, os.WriteFile(p, []byte("ALPHA\n"), 0o644))
			must(t, os.Chtimes(p, st.ModTime(), st.ModTime()))
		}, false},
		{"a new file", func(t *testing.T, root string) { write(t, root, "dir/new.txt", "", 0o644) }, false},
		{"a new empty dir", func(t *testing.T, root string) { must(t, os.Mkdir(filepath.Join(root, "empty"), 0o755)) }, false},
		{"a deleted file", func(t *testing.T, root string) { must(t, os.Remove(filepath.Join(root, "dir/b.txt"))) }, false},
		{"a file's mode", func(t *testing.T, root string) { must(t, os.Chmod(filepath.Join(root, "run.sh"), 0o644)) }, false},
		{"a dir's mode", func(t *testing.T, root string) { must(t, os.Chmod(filepath.Join(root, "dir"), 0o700)) }, false},
		{"a symlink's target", func(t *testing.T, root string) {
			must(t, os.Remove(filepath.Join(root, "link")))
			must(t, os.Symlink("run.sh", filepath.Join(root, "link")))
		}, false},
		{"a file replaced by a dir", func(t *testing.T, root string) {
			must(t, os.Remove(filepath.Join(root, "a.txt")))
			write(t, root, "a.txt/inside", "", 0o644)
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root, skip := base(t)
			s := newStore(t, root)
			m, err := Take(s, root, Options{Skip: []string{skip}})
			must(t, err)
			// As if the checkpoint were taken well after the files were
			// written: their stamps are trusted (the racy margin is its own case).
			m.Started = time.Now().Add(racyMargin + time.Second)
			c.change(t, root)
			if got := Unchanged(root, m, []string{skip}); got != c.same {
				t.Fatalf("Unchanged = %v, want %v", got, c.same)
			}
			if c.same {
				after, err := Take(s, root, Options{Prev: m, Skip: []string{skip}})
				must(t, err)
				if d := Diff(m, after); len(d) != 0 {
					t.Fatalf("Unchanged said the same, a full checkpoint differs: %v", d)
				}
			}
		})
	}
}

// A file changed within the racy margin of the checkpoint may differ from
// it under the same stamp (one clock tick): Unchanged does not trust it.
func TestUnchangedDoesNotTrustAFreshStamp(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, root, "a.txt", "alpha\n", 0o644)
	s := newStore(t, root)
	m, err := Take(s, root, Options{})
	must(t, err)
	if Unchanged(root, m, nil) {
		t.Fatal("a file written just before the checkpoint was trusted by its stamp")
	}
	m.Started = time.Now().Add(racyMargin + time.Second)
	if !Unchanged(root, m, nil) {
		t.Fatal("an old, unchanged file was not trusted")
	}
	if Unchanged(root, nil, nil) || Unchanged(filepath.Join(root, "elsewhere"), m, nil) {
		t.Fatal("no checkpoint, or another place's, was taken for this one")
	}
}
