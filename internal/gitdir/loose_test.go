package gitdir

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Only what changed since the snapshot is proven, and of that only what
// is not the object its name names is bad: a rewritten object (Was), a
// planted one; a valid new object and the untouched ones are not. A file
// git trusts for objects without checking (a commit-graph) is named apart.
func TestLooseChangedNamesRewrittenAndPlantedObjects(t *testing.T) {
	root := t.TempDir()
	git := func(stdin string, args ...string) string {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", root}, args...)...)
		c.Stdin = strings.NewReader(stdin)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	git("", "init", "-q")
	old := git("all:\n\techo fine\n", "hash-object", "-w", "--stdin")
	objects := filepath.Join(root, ".git", "objects")
	path := func(name string) string { return filepath.Join(objects, name[:2], name[2:]) }
	l := SnapObjects(objects)
	bad := git("all:\n\ttouch PWNED\n", "hash-object", "-w", "--stdin")
	good := git("a new blob\n", "hash-object", "-w", "--stdin")
	b, _ := os.ReadFile(path(bad))
	os.Remove(path(old))
	if err := os.WriteFile(path(old), b, 0o444); err != nil {
		t.Fatal(err)
	}
	planted := "ab" + strings.Repeat("c", 38)
	os.MkdirAll(filepath.Dir(path(planted)), 0o755)
	os.WriteFile(path(planted), b, 0o444)
	if err := os.WriteFile(filepath.Join(objects, "info", "commit-graph"), []byte("CGPH"), 0o444); err != nil {
		t.Fatal(err)
	}
	ch := l.Changed()
	if len(ch.Other) != 1 || ch.Other[0] != filepath.Join(objects, "info", "commit-graph") || len(ch.Packs) != 0 {
		t.Errorf("other files: %q, packs %q", ch.Other, ch.Packs)
	}
	got := map[string]Bad{}
	for _, x := range ch.Bad {
		got[x.Name] = x
	}
	if x, ok := got[old]; !ok || !x.Was || !strings.Contains(x.Why, "hashes to "+bad) {
		t.Errorf("the rewritten object: %+v (all: %+v)", x, got)
	}
	if x, ok := got[planted]; !ok || x.Was {
		t.Errorf("the planted object: %+v", x)
	}
	if _, ok := got[good]; ok || len(got) != 2 {
		t.Errorf("more than the two bad objects: %+v", got)
	}
}
