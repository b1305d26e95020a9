//go:build unix

package mcpserver

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A command that rewrites the loose object of a tracked file (the attack
// of issue 31: the person's next `git checkout -- Makefile` writes the
// command's recipe) cannot: the store is read-only to commands
// (gitscratch.go). A commit-graph it writes (git trusts its trees) stays
// in the scratch dir and never enters the person's store; a valid pack
// (git repack) does.
func TestExecCannotRewriteALooseObject(t *testing.T) {
	t.Parallel()
	bin := helper(t)
	f := newFixture(t)
	app := f.rw
	write(t, filepath.Join(app, "Makefile"), "all:\n\techo fine\n")
	gitIn(t, app, "init", "-q")
	gitIn(t, app, "add", "Makefile")
	gitIn(t, app, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", "init")
	out, err := exec.Command("git", "-C", app, "rev-parse", "HEAD:Makefile").Output()
	if err != nil {
		t.Fatal(err)
	}
	old := strings.TrimSpace(string(out))
	cfg := mustConfig(t, `exec_mode = "unrestricted"
[[paths]]
path = "`+app+`"
access = "rw"
`)
	cs, _ := stdioSession(t, cfg, Options{Helper: bin})
	got := mustAllow(t, cs, "exec", map[string]any{"command": strings.Join([]string{
		`o=$(ls -d .gi?)/objects`,
		`old=` + old,
		`new=$(printf 'all:\n\ttouch PWNED\n' | git hash-object -w --stdin)`,
		`rm -f $o/${old:0:2}/${old:2}`,
		`cp $GIT_OBJECT_DIRECTORY/${new:0:2}/${new:2} $o/${old:0:2}/${old:2}`,
		`echo done`}, "; ")})
	if !strings.Contains(got, "done") {
		t.Fatalf("the command did not run: %s", got)
	}
	if b, err := exec.Command("git", "-C", app, "cat-file", "-p", old).Output(); err != nil || strings.Contains(string(b), "PWNED") {
		t.Fatalf("git reads %q for the person's Makefile (%v):\n%s", b, err, got)
	}
	got = mustAllow(t, cs, "exec", map[string]any{"command": "git repack -q -a -d; git commit-graph write --reachable && echo done"})
	graph := filepath.Join(app, ".git", "objects", "info", "commit-graph")
	if _, err := os.Lstat(graph); err == nil {
		t.Errorf("the commit-graph is in the object store:\n%s", got)
	}
	if strings.Contains(got, "pack file") {
		t.Errorf("a valid pack was refused:\n%s", got)
	}
	if out, err := exec.Command("git", "-C", app, "cat-file", "-e", "HEAD:Makefile").CombinedOutput(); err != nil {
		t.Errorf("the repository lost its objects: %v %s", err, out)
	}
}

// A pack a command writes is proven: one whose bytes do not match its
// index is moved out with its index, a valid one stays.
func TestCheckObjectsProvesNewPacks(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	gitInit(t, root)
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		t.Fatal(err)
	}
	snap := g.snapObjects()
	src := t.TempDir()
	gitInit(t, src)
	write(t, filepath.Join(src, "a.txt"), strings.Repeat("some content to pack\n", 50))
	gitIn(t, src, "add", ".")
	gitIn(t, src, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", "x")
	gitIn(t, src, "repack", "-q", "-a", "-d")
	packs, _ := filepath.Glob(filepath.Join(src, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	dst := filepath.Join(root, ".git", "objects", "pack")
	good := filepath.Join(dst, filepath.Base(packs[0]))
	for _, ext := range []string{".pack", ".idx"} {
		b, err := os.ReadFile(strings.TrimSuffix(packs[0], ".pack") + ext)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(strings.TrimSuffix(good, ".pack")+ext, b, 0o444)
		if ext == ".pack" {
			b[len(b)/2] ^= 0xff
		}
		os.WriteFile(filepath.Join(dst, "pack-"+strings.Repeat("0", 40)+ext), b, 0o444)
	}
	said := strings.Join(g.checkObjects(context.Background(), snap), "\n")
	bad := filepath.Join(dst, "pack-"+strings.Repeat("0", 40))
	for _, ext := range []string{".pack", ".idx"} {
		if _, err := os.Lstat(bad + ext); err == nil {
			t.Errorf("the pack file that does not verify, %s, is still there:\n%s", ext, said)
		}
		if _, err := os.Lstat(strings.TrimSuffix(good, ".pack") + ext); err != nil {
			t.Errorf("the valid pack's %s was moved out: %v\n%s", ext, err, said)
		}
	}
	if !strings.Contains(said, "does not verify") {
		t.Errorf("the answer does not say the pack does not verify:\n%s", said)
	}
}

// A command that rewrites only the index of the person's pack has the
// index moved out; the person's pack, as it was, stays.
func TestCheckObjectsKeepsThePersonsPackWhenOnlyTheIndexChanged(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	gitInit(t, root)
	write(t, filepath.Join(root, "a.txt"), strings.Repeat("some content to pack\n", 50))
	gitIn(t, root, "add", ".")
	gitIn(t, root, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-qm", "x")
	gitIn(t, root, "repack", "-q", "-a", "-d")
	packs, _ := filepath.Glob(filepath.Join(root, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	g := &gitGuard{}
	if _, err := g.protect(root); err != nil {
		t.Fatal(err)
	}
	snap := g.snapObjects()
	idx := strings.TrimSuffix(packs[0], ".pack") + ".idx"
	b, _ := os.ReadFile(idx)
	b[len(b)-30] ^= 0xff
	os.Remove(idx)
	os.WriteFile(idx, b, 0o444)
	said := strings.Join(g.checkObjects(context.Background(), snap), "\n")
	if _, err := os.Lstat(idx); err == nil {
		t.Errorf("the rewritten index is still there:\n%s", said)
	}
	if _, err := os.Lstat(packs[0]); err != nil {
		t.Errorf("the person's pack was moved out: %v\n%s", err, said)
	}
}
