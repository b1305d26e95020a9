package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotTreeIsWhatAddAllGives: in every case the tree built from the
// changed paths is, id for id, the tree `git add -A` on a copy of the index
// gives, and that is the tree git gives when it reads every file
// (treeReadingEveryFile); the quick path handles every ordinary case, and
// the person's index is left as it was.
func TestSnapshotTreeIsWhatAddAllGives(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range snapshotCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case is a repository of its own
			dir := snapshotBase(t)
			c.setup(t, dir)
			p := snapshotProject(t, dir)
			index, _ := os.ReadFile(filepath.Join(p.GitDir, "index"))
			gitDir := gitDirFiles(t, p)
			g := gitCmd{dir: dir}
			headTree := gitT(t, dir, "rev-parse", "HEAD^{tree}")
			want, err := treeByAdd(ctx, g, p, t.TempDir())
			if c.addFails {
				if err == nil {
					t.Fatalf("git add -A took it: tree %s", want)
				}
				for _, o := range bothScans(t) {
					if _, err := changedTree(ctx, g, headOf(t, p), t.TempDir(), o); !isUnusual(err) {
						t.Fatalf("the quick path (cache %q) took it: %v", o.cacheDir, err)
					}
				}
				if snap, err := TakeSnapshot(ctx, p, t.TempDir()); err == nil {
					t.Fatalf("snapshot %+v of a tree git add -A refuses", snap)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if truth := treeReadingEveryFile(t, p); want != truth {
				t.Fatalf("git add -A on a copy of the index gives %s, reading every file %s:\n%s", want, truth,
					gitT(t, dir, "diff-tree", "-r", "--no-renames", truth, want))
			}
			for _, o := range bothScans(t) {
				got, err := changedTree(ctx, g, headOf(t, p), t.TempDir(), o)
				switch {
				case c.declined && !isUnusual(err):
					t.Fatalf("the quick path (cache %q) took it (%v): tree %s", o.cacheDir, err, got)
				case !c.declined && err != nil:
					t.Fatalf("the quick path (cache %q) declined: %v", o.cacheDir, err)
				case err == nil && got != want:
					t.Fatalf("tree %s (cache %q), git add -A gives %s:\n%s", got, o.cacheDir, want,
						gitT(t, dir, "diff-tree", "-r", "--no-renames", want, got))
				}
			}
			if (want == headTree) != c.same {
				t.Fatalf("git add -A gives tree %s, HEAD's is %s: the case does not test what it says", want, headTree)
			}
			snap, err := TakeSnapshot(ctx, p, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(filepath.Join(p.GitDir, "index")); !bytes.Equal(after, index) {
				t.Fatal("the person's index changed")
			}
			if after := gitDirFiles(t, p); after != gitDir {
				t.Fatalf("the git dir changed outside objects/:\n%s\nwas\n%s", after, gitDir)
			}
			if tree := gitT(t, dir, "rev-parse", snap.Commit+"^{tree}"); tree != want {
				t.Fatalf("snapshot tree %s, want %s", tree, want)
			}
			if snap.Dirty != (want != headTree) || snap.Dirty == (snap.Commit == snap.Base) {
				t.Fatalf("snapshot %+v for tree %s (HEAD's %s)", snap, want, headTree)
			}
		})
	}
}

// snapshotProject is the project at dir, which the test made.
func snapshotProject(t *testing.T, dir string) *Project {
	t.Helper()
	p, err := FindProject(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSnapshotOfACleanTreeCopiesNoIndex: with nothing changed the snapshot
// is HEAD, found without writing a copy of the index.
func TestSnapshotOfACleanTreeCopiesNoIndex(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := snapshotBase(t)
	p := snapshotProject(t, dir)
	// A directory in the way of the index copy: treeByAdd would fail.
	scratch := t.TempDir()
	os.MkdirAll(filepath.Join(scratch, "snapshot.index", "x"), 0o700)
	snap, err := TakeSnapshot(ctx, p, scratch)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Dirty || snap.Commit != snap.Base || snap.Base != gitT(t, dir, "rev-parse", "HEAD") {
		t.Fatalf("clean snapshot = %+v", snap)
	}
}

// TestSnapshotTreeInASHA256Repository: object ids of 64 hex digits, trees
// hashed with SHA-256.
func TestSnapshotTreeInASHA256Repository(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	gitT(t, dir, "init", "-q", "--object-format=sha256")
	write(t, filepath.Join(dir, "a.txt"), "a\n")
	write(t, filepath.Join(dir, "d/b.txt"), "b\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "base")
	write(t, filepath.Join(dir, "a.txt"), "a2\n")
	write(t, filepath.Join(dir, "d/e/new.txt"), "new\n")
	symlink(t, "a.txt", filepath.Join(dir, "d/link"))
	p := snapshotProject(t, dir)
	g := gitCmd{dir: dir}
	want, err := treeByAdd(ctx, g, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range bothScans(t) {
		got, err := changedTree(ctx, g, headOf(t, p), t.TempDir(), o)
		if err != nil || got != want || len(got) != 64 {
			t.Fatalf("tree %s (%v, cache %q), git add -A gives %s", got, err, o.cacheDir, want)
		}
	}
}

// TestSnapshotTreeIsTakenAgainstTheHEADItRead: HEAD moving on while the
// snapshot is taken (the person commits) does not mix two commits: the
// changes are read against the commit whose tree they are applied to.
func TestSnapshotTreeIsTakenAgainstTheHEADItRead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := snapshotBase(t)
	p := snapshotProject(t, dir)
	write(t, filepath.Join(dir, "a.txt"), "a2\n")
	write(t, filepath.Join(dir, "dir/c.txt"), "c2\n")
	head := headOf(t, p)
	gitT(t, dir, "commit", "-qam", "the person commits meanwhile")
	got, err := changedTree(ctx, gitCmd{dir: dir}, head, t.TempDir(), snapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := treeReadingEveryFile(t, p); got != want {
		t.Fatalf("tree %s, the work tree's is %s:\n%s", got, want, gitT(t, dir, "diff-tree", "-r", want, got))
	}
}

// TestSnapshotDeclinesAnIndexWrittenDuringItsScan: the quick path reads
// the index twice (diff-index, ls-files); if git wrote it in between, a
// newly staged file could be in neither read, so a changed index sends the
// snapshot to `git add -A`, which reads it once.
func TestSnapshotDeclinesAnIndexWrittenDuringItsScan(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := snapshotBase(t)
	p := snapshotProject(t, dir)
	write(t, filepath.Join(dir, "new.txt"), "new\n")
	tree, err := changedTree(ctx, gitCmd{dir: dir}, headOf(t, p), t.TempDir(),
		snapshotOptions{afterScan: func() { gitT(t, dir, "add", "new.txt") }})
	if !isUnusual(err) {
		t.Fatalf("the quick path took it (%v): tree %s", err, tree)
	}
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, dir, "cat-file", "blob", snap.Commit+":new.txt"); got != "new" {
		t.Fatalf("new.txt in the snapshot: %q", got)
	}
}
