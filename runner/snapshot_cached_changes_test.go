package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/internal/filestamp"
)

// TestCachedSnapshotSeesEveryChange: a snapshot taken through a kept
// private untracked-cache index (every record older than the scan that
// wrote it) holds each change made after that scan — a tracked file
// rewritten with content of the same size and its mtime set back to the
// same second, a file rewritten in a directory whose stat data do not
// move (no shortcut may judge files by their directory), a new file in an
// old directory whose mtime was set back, a file replaced (renamed over)
// by one of the same size with the old mtime, a new file in a new deep
// directory, a deleted tracked
// file, a tracked file turned into a symlink, a directory turned into a
// file — even where the person's config would have git trust less of the
// stat data (core.checkStat minimal, core.trustctime off: the private
// index's scan forces both back). Each snapshot's tree is the one git
// gives reading every file.
func TestCachedSnapshotSeesEveryChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := snapshotBase(t)
	gitT(t, dir, "config", "core.checkStat", "minimal")
	gitT(t, dir, "config", "core.trustctime", "false")
	p := snapshotProject(t, dir)
	o := snapshotOptions{cacheDir: filepath.Join(t.TempDir(), "untracked")}
	hashLen := len(headOf(t, p).tree) / 2
	take := func() Snapshot {
		t.Helper()
		snap, err := takeSnapshot(ctx, p, t.TempDir(), o)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	changes := []struct {
		name   string
		change func(t *testing.T)
	}{
		{"same size, same mtime second", func(t *testing.T) {
			full := filepath.Join(dir, "a.txt")
			st, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			write(t, full, "A\n")
			if err := os.Chtimes(full, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file in an old directory rewritten, the directory's stat data unchanged", func(t *testing.T) {
			sub := filepath.Join(dir, "dir/sub")
			before := statOf(t, sub)
			write(t, filepath.Join(sub, "d.txt"), "d, longer now\n")
			if after := statOf(t, sub); after != before {
				t.Fatalf("writing a file in place moved its directory's stat data: %+v, then %+v", before, after)
			}
		}},
		{"a new file in an old directory, the directory's mtime set back", func(t *testing.T) {
			sub := filepath.Join(dir, "dir/sub")
			st, err := os.Stat(sub)
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(sub, "new-in-old.txt"), "new\n")
			if err := os.Chtimes(sub, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file replaced by a same-size file, its mtime set back", func(t *testing.T) {
			full := filepath.Join(dir, "dir/sub/e.txt")
			st, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			tmp := filepath.Join(dir, "dir/sub/.e.swp")
			write(t, tmp, "E\n")
			if err := os.Chtimes(tmp, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, full); err != nil {
				t.Fatal(err)
			}
			if after, err := os.Stat(full); err != nil || after.Size() != st.Size() || !after.ModTime().Equal(st.ModTime()) {
				t.Fatalf("the replacement's size and mtime: %v, %v", after, err)
			}
		}},
		{"a new file in a new deep directory", func(t *testing.T) {
			write(t, filepath.Join(dir, "deep/er/and/deeper/new.txt"), "new\n")
		}},
		{"a tracked file deleted", func(t *testing.T) { remove(t, dir, "b.txt") }},
		{"a file turned into a symlink", func(t *testing.T) {
			remove(t, dir, "dir/c.txt")
			symlink(t, "../a.txt", filepath.Join(dir, "dir/c.txt"))
		}},
		{"a directory turned into a file", func(t *testing.T) {
			remove(t, dir, "dir/sub")
			write(t, filepath.Join(dir, "dir/sub"), "now a file\n")
		}},
	}
	for _, c := range changes {
		// A scan with nothing new since keeps its private index: the
		// change below is then judged against cached stat data.
		waitPastCtimes(t, dir)
		take()
		cacheKept(t, o, hashLen)
		c.change(t)
		snap := take()
		got := gitT(t, dir, "rev-parse", snap.Commit+"^{tree}")
		if want := treeReadingEveryFile(t, p); got != want {
			t.Fatalf("%s: the snapshot's tree is %s, the work tree's %s\n%s", c.name, got, want,
				gitT(t, dir, "diff-tree", "-r", "--name-status", got, want))
		}
		if snap.Tree != got {
			t.Fatalf("%s: Snapshot.Tree %s, its commit's tree %s", c.name, snap.Tree, got)
		}
	}
}

// statOf is dir's stat data as git's cache records them.
func statOf(t *testing.T, name string) filestamp.Stamp {
	t.Helper()
	st, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := filestamp.Of(st)
	if !ok {
		t.Skip("no stat data here")
	}
	return s
}
