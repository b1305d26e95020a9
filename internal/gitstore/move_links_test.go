package gitstore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The scratch dir is the coder's: a pack dir or a loose object dir in it
// that is a link to the person's store is not followed. Followed, the
// mover found the person's own packs and loose objects there, saw the
// store already had them, and removed them (through the link) from the
// person's store.
func TestMoveFollowsNoLinkOutOfTheScratchDir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git(t, repo, "", "init", "-q")
	store := filepath.Join(repo, ".git", "objects")
	blob := git(t, repo, "kept\n", "hash-object", "-w", "--stdin")
	loose := git(t, repo, "loose\n", "hash-object", "-w", "--stdin")
	git(t, repo, blob+"\n", "pack-objects", "-q", ".git/objects/pack/pack")
	packs, _ := filepath.Glob(filepath.Join(store, "pack", "pack-*"))
	if len(packs) != 2 {
		t.Fatalf("the person's pack: %v", packs)
	}
	scratch := filepath.Join(t.TempDir(), "objects")
	os.Mkdir(scratch, 0o700)
	if err := os.Symlink(filepath.Join(store, "pack"), filepath.Join(scratch, "pack")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(store, loose[:2]), filepath.Join(scratch, loose[:2])); err != nil {
		t.Fatal(err)
	}
	var refused []string
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}}, VerifyPack: verify,
		Refuse: func(p, why string) { refused = append(refused, p+": "+why) }}
	if err := m.Run(context.Background()); err != nil {
		t.Logf("run: %v", err)
	}
	for _, p := range append(packs, filepath.Join(store, loose[:2], loose[2:])) {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("the person's %s was removed through a link in the scratch dir: %v", filepath.Base(p), err)
		}
	}
	if len(refused) != 0 {
		t.Errorf("refused (and so moved out) through a link: %v", refused)
	}
}
