package runner

import (
	"bytes"
	"crypto/sha1"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// withIndexExt is the index b with ext (one whole extension, signature
// and size included) in place of any of its signature, checksum made
// again; EOIE goes (its hash covers the extensions).
func withIndexExt(t *testing.T, b, ext []byte) []byte {
	t.Helper()
	out, err := gitindex.WithoutExtensions(b, []string{string(ext[:4])})
	if err != nil {
		t.Fatal(err)
	}
	out = append(bytes.Clone(out[:len(out)-20]), ext...)
	h := sha1.Sum(out)
	return append(out, h[:]...)
}

// indexExtBytes is the extension sig of the index b, whole.
func indexExtBytes(t *testing.T, b []byte, sig string) []byte {
	t.Helper()
	ext, err := gitindex.Extension(b, sig)
	if err != nil || ext == nil {
		t.Fatalf("the index carries no %s: %v", sig, err)
	}
	return ext
}

// writeTreeOf is the root tree git write-tree makes of the index file idx
// (as git commit would), and the blob it records for path.
func writeTreeOf(t *testing.T, dir, idx, path string) string {
	t.Helper()
	cmd := gitTestCmd(dir, "write-tree")
	cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+idx)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("write-tree: %v\n%s", err, out)
	}
	return gitT(t, dir, "rev-parse", strings.TrimSpace(string(out))+":"+path)
}

// A cache-tree (TREE) the coder forges, recording a subtree of its own
// for a directory whose entries the person staged, makes the person's
// next commit record the coder's subtree (git trusts a valid record
// instead of hashing the entries): at the end of the run a TREE the run
// changed is removed, and the commit then records the index's entries.
func TestInPlaceRemovesACacheTreeTheCoderForged(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	gitT(t, dir, "init", "-q")
	write(t, filepath.Join(dir, "a.txt"), "a\n")
	write(t, filepath.Join(dir, "sub", "b.txt"), "b\n")
	gitT(t, dir, "add", "-A")
	gitT(t, dir, "commit", "-qm", "one")
	w := &Workspace{Dir: dir, Shadow: filepath.Join(t.TempDir(), "shadow.git"), project: &Project{Root: dir, GitDir: filepath.Join(dir, ".git")}}
	// The person stages a change.
	write(t, filepath.Join(dir, "sub", "b.txt"), "the person's\n")
	gitT(t, dir, "add", "sub/b.txt")
	if err := w.recordIndex(); err != nil {
		t.Fatal(err)
	}
	good := gitT(t, dir, "rev-parse", ":sub/b.txt")
	// The coder's git: a valid cache-tree for its own sub/, then the
	// person's entry back, then its cache-tree spliced in.
	idxPath := filepath.Join(dir, ".git", "index")
	write(t, filepath.Join(dir, "sub", "b.txt"), "the coder's\n")
	gitT(t, dir, "add", "sub/b.txt")
	evil := gitT(t, dir, "rev-parse", ":sub/b.txt")
	gitT(t, dir, "write-tree")
	idx, _ := os.ReadFile(idxPath)
	forged := indexExtBytes(t, idx, "TREE")
	write(t, filepath.Join(dir, "sub", "b.txt"), "the person's\n")
	gitT(t, dir, "add", "sub/b.txt")
	idx, _ = os.ReadFile(idxPath)
	if err := os.WriteFile(idxPath, withIndexExt(t, idx, forged), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := gitT(t, dir, "rev-parse", ":sub/b.txt"); got != good {
		t.Fatalf("the index's entry is not the person's: %s", got)
	}
	// The attack: a commit made of this index records the coder's blob.
	probe := filepath.Join(t.TempDir(), "index")
	b, _ := os.ReadFile(idxPath)
	write(t, probe, string(b))
	if got := writeTreeOf(t, dir, probe, "sub/b.txt"); got != evil {
		t.Fatalf("the forged cache-tree was not trusted (got %s, want the coder's %s): the attack did not take", got, evil)
	}
	got, err := w.dropIndexCaches()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Sig != "TREE" || got[0].Err != "" {
		t.Fatalf("want the forged TREE named and removed: %+v", got)
	}
	if s := got[0].String(); !strings.Contains(s, "commit") || !strings.Contains(s, "removed") {
		t.Errorf("the line does not say what it risked and that it was removed: %s", s)
	}
	if got := writeTreeOf(t, dir, idxPath, "sub/b.txt"); got != good {
		t.Errorf("a commit would still record %s, not the person's %s", got, good)
	}
}
