//go:build unix

package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// untrackedCacheProject is a committed repository whose directories carry
// an old mtime (so the cache trusts them: not racily clean), with the
// user's state dir in a temp dir.
func untrackedCacheProject(t *testing.T) *Project {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	untrackedCacheOn = true
	t.Cleanup(func() { untrackedCacheOn = false })
	dir := t.TempDir()
	gitT(t, dir, "init", "-q")
	for _, name := range []string{"a/one.txt", "a/b/two.txt", "c/three.txt", ".gitignore"} {
		write(t, filepath.Join(dir, name), "x\n")
	}
	write(t, filepath.Join(dir, ".gitignore"), "*.log\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "base")
	// A repository may turn these off; the cache must not trust mtimes
	// alone then.
	gitT(t, dir, "config", "core.trustctime", "false")
	gitT(t, dir, "config", "core.checkStat", "minimal")
	return snapshotProject(t, dir)
}

var oldTime = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)

func ageDirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.Chtimes(filepath.Join(root, d), oldTime, oldTime); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotFiles takes a snapshot and lists the files of its tree; it checks
// the tree is the one `git add -A` gives.
func snapshotFiles(t *testing.T, p *Project) []string {
	t.Helper()
	ctx := context.Background()
	snap, err := TakeSnapshot(ctx, p, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tree := gitT(t, p.Root, "rev-parse", snap.Commit+"^{tree}")
	if want, err := treeByAdd(ctx, gitCmd{dir: p.Root}, p, t.TempDir()); err != nil || want != tree {
		t.Fatalf("snapshot tree %s, git add -A gives %s (%v)", tree, want, err)
	}
	return strings.Split(gitT(t, p.Root, "ls-tree", "-r", "--name-only", tree), "\n")
}

func holds(files []string, name string) bool {
	for _, f := range files {
		if f == name {
			return true
		}
	}
	return false
}

// cachedIndex is the project's one private index, which must carry the
// untracked cache (else the tests below test nothing).
func cachedIndex(t *testing.T, p *Project) string {
	t.Helper()
	dir, err := untrackedCacheDir(p.Root)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.index"))
	if len(names) != 1 {
		t.Fatalf("private indexes %v, want one", names)
	}
	b, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("UNTR")) {
		t.Fatal("the private index holds no untracked cache")
	}
	if strings.HasPrefix(names[0], p.Root+string(filepath.Separator)) {
		t.Fatalf("the private index %s is inside the project", names[0])
	}
	return names[0]
}

// warm takes snapshots until the cache holds every directory.
func warm(t *testing.T, p *Project) {
	t.Helper()
	ageDirs(t, p.Root, ".", "a", "a/b", "c")
	snapshotFiles(t, p)
	snapshotFiles(t, p)
	cachedIndex(t, p)
}

// TestUntrackedCacheSeesEveryNewFile: a file made in a directory the cache
// holds appears in the next snapshot, however it was made — with the
// directory's mtime set back afterwards (which a repository's
// core.trustctime=false would let hide it: the test shows git hiding it
// then), in a new directory, unstaged after a snapshot saw it tracked,
// un-ignored through info/exclude.
func TestUntrackedCacheSeesEveryNewFile(t *testing.T) {
	p := untrackedCacheProject(t)
	warm(t, p)
	root := p.Root

	// git compares times to the second: the change is made in a later
	// second than the scans that recorded the directory (see What remains
	// in snapshot_untracked.go). A wait on the clock, at most a second.
	for recorded := time.Now().Unix(); time.Now().Unix() == recorded; {
		time.Sleep(10 * time.Millisecond)
	}
	// Renamed in place: the directory keeps its size on any file system.
	if err := os.Rename(filepath.Join(root, "a/b/two.txt"), filepath.Join(root, "a/b/sneaky.txt")); err != nil {
		t.Fatal(err)
	}
	ageDirs(t, root, "a/b")
	// git with the repository's own settings, on a copy of the warm
	// private index, does not see it: what the forced settings prevent.
	copyOf := filepath.Join(t.TempDir(), "index")
	if err := copyIndex(cachedIndex(t, p), copyOf); err != nil {
		t.Fatal(err)
	}
	out, err := gitCmd{dir: root}.with("GIT_INDEX_FILE="+copyOf).run(context.Background(),
		"-c", "core.untrackedCache=true", "status", "--porcelain", "-unormal")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "sneaky") {
		t.Fatalf("git with the repository's settings saw the file; the test does not test what it says:\n%s", out)
	}
	if files := snapshotFiles(t, p); !holds(files, "a/b/sneaky.txt") {
		t.Fatalf("a file made in a cached directory whose mtime was set back is missing: %v", files)
	}

	write(t, filepath.Join(root, "c/new/deep/file.txt"), "new dir\n")
	if files := snapshotFiles(t, p); !holds(files, "c/new/deep/file.txt") {
		t.Fatalf("a file in a new directory is missing: %v", files)
	}

	write(t, filepath.Join(root, "a/staged.txt"), "staged\n")
	gitT(t, root, "add", "a/staged.txt")
	snapshotFiles(t, p)
	gitT(t, root, "rm", "-q", "--cached", "a/staged.txt")
	ageDirs(t, root, "a")
	if files := snapshotFiles(t, p); !holds(files, "a/staged.txt") {
		t.Fatalf("a file unstaged after a snapshot saw it tracked is missing: %v", files)
	}

	write(t, filepath.Join(root, "c/kept.log"), "ignored, then not\n")
	write(t, filepath.Join(root, "c/other.txt"), "excluded, then not\n")
	write(t, filepath.Join(p.GitDir, "info", "exclude"), "other.txt\n")
	ageDirs(t, root, "c")
	if files := snapshotFiles(t, p); holds(files, "c/kept.log") || holds(files, "c/other.txt") {
		t.Fatalf("an ignored file is in the snapshot: %v", files)
	}
	// Both edited in place: no directory's stat data change.
	write(t, filepath.Join(root, ".gitignore"), "*.tmp\n")
	write(t, filepath.Join(p.GitDir, "info", "exclude"), "\n")
	ageDirs(t, root, ".", "c")
	if files := snapshotFiles(t, p); !holds(files, "c/kept.log") || !holds(files, "c/other.txt") {
		t.Fatalf("a file no longer ignored is missing: %v", files)
	}
}

// TestUntrackedCacheRefusesAnIndexOthersCanWrite: a private index that is
// writable by others (here: one that tracks the new file, so git would not
// call it untracked) is not used but made again.
func TestUntrackedCacheRefusesAnIndexOthersCanWrite(t *testing.T) {
	p := untrackedCacheProject(t)
	warm(t, p)
	root := p.Root
	idx := cachedIndex(t, p)

	write(t, filepath.Join(root, "a/planted.txt"), "planted\n")
	poisoned := filepath.Join(t.TempDir(), "index")
	if err := copyIndex(idx, poisoned); err != nil {
		t.Fatal(err)
	}
	gitCmd{dir: root}.with("GIT_INDEX_FILE="+poisoned).run(context.Background(), "add", "a/planted.txt")
	b, err := os.ReadFile(poisoned)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idx, b, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(idx, 0o666); err != nil {
		t.Fatal(err)
	}
	if files := snapshotFiles(t, p); !holds(files, "a/planted.txt") {
		t.Fatalf("a private index others could write was used: the new file is missing: %v", files)
	}
	if st, err := os.Stat(cachedIndex(t, p)); err != nil || st.Mode().Perm()&0o022 != 0 {
		t.Fatalf("the private index was not made again: %v %v", st.Mode(), err)
	}
}

// TestUntrackedCacheFollowsThePersonsIndex: one private index per project,
// made again from the person's index whenever that changes.
func TestUntrackedCacheFollowsThePersonsIndex(t *testing.T) {
	p := untrackedCacheProject(t)
	warm(t, p)
	first := cachedIndex(t, p)
	write(t, filepath.Join(p.Root, "c/added.txt"), "added\n")
	gitT(t, p.Root, "add", "c/added.txt")
	if files := snapshotFiles(t, p); !holds(files, "c/added.txt") {
		t.Fatalf("a staged file is missing: %v", files)
	}
	if second := cachedIndex(t, p); second == first {
		t.Fatal("the private index was not made again for the changed index")
	}
}
