package runner

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The coder's new objects enter the project at the end only when proven:
// a loose object and a pack that git verifies go in; a loose object whose
// content is not its name, and a pack whose bytes were changed, stay out
// and are quarantined; an object the project has is never replaced.
func TestMigrateObjectsOnlyProvenOnes(t *testing.T) {
	t.Parallel()
	p, g := guardedRepo(t)
	root := p.Root
	coder := func(stdin string, args ...string) string {
		t.Helper()
		c := exec.Command("git", args...)
		c.Dir = root
		c.Env = append(os.Environ(), "GIT_OBJECT_DIRECTORY="+g.Objects, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+p.ObjectsDir())
		c.Stdin = strings.NewReader(stdin)
		out, err := c.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	good := coder("good\n", "hash-object", "-w", "--stdin")
	packed := coder("packed\n", "hash-object", "-w", "--stdin")
	badPacked := coder("bad packed\n", "hash-object", "-w", "--stdin")
	// Two packs: one left as git wrote it, one with a byte of its data changed.
	okPack := coder(packed+"\n", "pack-objects", filepath.Join(g.Objects, "pack", "pack"))
	badPack := coder(badPacked+"\n", "pack-objects", filepath.Join(g.Objects, "pack", "pack"))
	for _, o := range []string{packed, badPacked} {
		os.Remove(filepath.Join(g.Objects, o[:2], o[2:]))
	}
	bp := filepath.Join(g.Objects, "pack", "pack-"+badPack+".pack")
	b, _ := os.ReadFile(bp)
	b[len(b)-25] ^= 0xff
	os.Chmod(bp, 0o644)
	os.WriteFile(bp, b, 0o444)
	// A forged loose object: "evil" under the name of "safe".
	safe := coder("safe\n", "hash-object", "--stdin")
	evil := coder("evil\n", "hash-object", "-w", "--stdin")
	os.MkdirAll(filepath.Join(g.Objects, safe[:2]), 0o755)
	if err := os.Rename(filepath.Join(g.Objects, evil[:2], evil[2:]), filepath.Join(g.Objects, safe[:2], safe[2:])); err != nil {
		t.Fatal(err)
	}

	refused, err := g.migrateObjects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	objects := p.ObjectsDir()
	if _, err := os.Stat(filepath.Join(objects, good[:2], good[2:])); err != nil {
		t.Errorf("a proven loose object did not go in: %v", err)
	}
	if _, err := os.Stat(filepath.Join(objects, "pack", "pack-"+okPack+".pack")); err != nil {
		t.Errorf("a verified pack did not go in: %v", err)
	}
	if _, err := os.Stat(filepath.Join(objects, safe[:2], safe[2:])); err == nil {
		t.Errorf("the forged loose object went in")
	}
	if _, err := os.Stat(filepath.Join(objects, "pack", "pack-"+badPack+".pack")); err == nil {
		t.Errorf("the changed pack went in")
	}
	if len(refused) != 3 { // the forged object, the bad pack and its index
		t.Errorf("refused: %v", refused)
	}
	if _, err := os.Stat(g.Objects); !os.IsNotExist(err) {
		t.Errorf("the scratch object dir is left: %v", err)
	}
}
