package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func verify(ctx context.Context, into Store, idx string) error {
	return exec.CommandContext(ctx, "git", "--git-dir="+filepath.Dir(into.Dir), "verify-pack", "--", idx).Run()
}

// A proven loose object and a proven pack enter the store; a loose object
// whose content is not its name and a pack that does not verify never do
// (each is refused); a pack without its index waits when asked to.
func TestMoveAdmitsOnlyProvenObjects(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git(t, repo, "", "init", "-q")
	store := filepath.Join(repo, ".git", "objects")
	src := t.TempDir()
	git(t, src, "", "init", "-q")
	good := git(t, src, "good\n", "hash-object", "-w", "--stdin")
	other := git(t, src, "other\n", "hash-object", "-w", "--stdin")
	scratch := filepath.Join(src, ".git", "objects")
	// A planted object: other's bytes under a name they do not hash to.
	planted := git(t, src, "planted\n", "hash-object", "--stdin")
	os.MkdirAll(filepath.Join(scratch, planted[:2]), 0o755)
	b, _ := os.ReadFile(filepath.Join(scratch, other[:2], other[2:]))
	os.WriteFile(filepath.Join(scratch, planted[:2], planted[2:]), b, 0o444)
	os.Remove(filepath.Join(scratch, other[:2], other[2:]))
	// A pack that does not verify, and a pack without its index.
	git(t, src, good+"\n", "pack-objects", "-q", ".git/objects/pack/pack")
	packs, _ := filepath.Glob(filepath.Join(scratch, "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	pb, _ := os.ReadFile(packs[0])
	pb[len(pb)/2] ^= 0xff
	os.Chmod(packs[0], 0o644)
	os.WriteFile(packs[0], pb, 0o444)
	lone := filepath.Join(scratch, "pack", "pack-"+strings.Repeat("1", 40)+".pack")
	os.WriteFile(lone, []byte("PACK"), 0o444)

	var refused []string
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}}, VerifyPack: verify, KeepUnfinished: true,
		Refuse: func(p, why string) { refused = append(refused, filepath.Base(p)+": "+why); os.Remove(p) }}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := git(t, repo, "", "cat-file", "-p", good); got != "good" {
		t.Errorf("the proven object reads %q", got)
	}
	if _, err := os.Lstat(filepath.Join(store, planted[:2], planted[2:])); err == nil {
		t.Error("the planted object entered the store")
	}
	if ps, _ := filepath.Glob(filepath.Join(store, "pack", "*")); len(ps) != 0 {
		t.Errorf("a pack that does not verify entered the store: %v", ps)
	}
	all := strings.Join(refused, "\n")
	for _, w := range []string{planted[2:] + ": its content hashes to " + other, "do not match its index"} {
		if !strings.Contains(all, w) {
			t.Errorf("refused lacks %q:\n%s", w, all)
		}
	}
	if _, err := os.Lstat(lone); err != nil {
		t.Errorf("the pack without its index did not wait: %v\n%s", err, all)
	}
	m.KeepUnfinished = false
	refused = nil
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(refused, "\n"), "a pack without its index") {
		t.Errorf("the pack without its index was not refused at the end: %v", refused)
	}
}
