package gitstore

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// scratchWithPack is a repository's store, and a scratch object dir
// holding a pack of one new blob and a loose object.
func scratchWithPack(t *testing.T, format string) (store, scratch, blob, loose string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	git(t, repo, "", "init", "-q", "--object-format="+format)
	src := t.TempDir()
	git(t, src, "", "init", "-q", "--object-format="+format)
	blob = git(t, src, "packed "+format+"\n", "hash-object", "-w", "--stdin")
	git(t, src, blob+"\n", "pack-objects", "-q", ".git/objects/pack/pack")
	os.RemoveAll(filepath.Join(src, ".git", "objects", blob[:2]))
	loose = git(t, src, "loose "+format+"\n", "hash-object", "-w", "--stdin")
	return filepath.Join(repo, ".git", "objects"), filepath.Join(src, ".git", "objects"), blob, loose
}

func storePacks(t *testing.T, store string) []string {
	t.Helper()
	ps, _ := filepath.Glob(filepath.Join(store, "pack", "pack-*"))
	return ps
}

// When the pack is in but its index cannot follow, the pack is taken
// back out: the store never keeps a pack without its index, and the
// scratch dir keeps both for the next try.
func TestMoveNeverLeavesAPackWithoutItsIndex(t *testing.T) {
	store, scratch, _, _ := scratchWithPack(t, "sha1")
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}}, VerifyPack: verify,
		Refuse: func(p, why string) { t.Errorf("refused %s: %s", p, why) },
		Rename: func(o, n string) error {
			if strings.HasSuffix(n, ".idx") {
				return errors.New("no space left on device")
			}
			return os.Rename(o, n)
		}}
	if err := m.Run(context.Background()); err == nil {
		t.Fatal("a failed rename of the index is not an error")
	}
	if ps := storePacks(t, store); len(ps) != 0 {
		t.Fatalf("the store keeps %v without its index", ps)
	}
	if ps, _ := filepath.Glob(filepath.Join(scratch, "pack", "pack-*")); len(ps) != 2 {
		t.Errorf("the scratch dir lost the pack or its index: %v", ps)
	}
}

// One staging dir per store and run, not one per object.
func TestMoveStagesInOneDirPerStore(t *testing.T) {
	store, scratch, _, loose := scratchWithPack(t, "sha1")
	dirs := map[string]bool{}
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}}, VerifyPack: verify,
		Refuse: func(p, why string) { t.Errorf("refused %s: %s", p, why) },
		Rename: func(o, n string) error { dirs[filepath.Dir(o)] = true; return os.Rename(o, n) }}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 1 {
		t.Errorf("staged in %d dirs, want one: %v", len(dirs), dirs)
	}
	if !present(filepath.Join(store, loose[:2], loose[2:])) || len(storePacks(t, store)) != 2 {
		t.Error("the objects did not enter the store")
	}
	if left, _ := filepath.Glob(filepath.Join(store, "tmp_sentinel_*")); len(left) != 0 {
		t.Errorf("staging dirs left in the store: %v", left)
	}
}

// Each store takes only objects and packs of its own format, each proven
// with its own hash: a SHA-1 scratch dir's pack and object enter the
// SHA-1 store and never the SHA-256 one (and the reverse); a store whose
// format is unknown stops the move before anything moves.
func TestMoveChecksTheFormatPerStore(t *testing.T) {
	s1, scratch1, _, loose1 := scratchWithPack(t, "sha1")
	s256, scratch256, _, loose256 := scratchWithPack(t, "sha256")
	into := []Store{{Dir: s256, HexLen: 64}, {Dir: s1, HexLen: 40}}
	verifyIn := func(ctx context.Context, st Store, idx string) error {
		return exec.CommandContext(ctx, "git", "--git-dir="+filepath.Dir(st.Dir), "verify-pack", "--", idx).Run()
	}
	for _, scratch := range []string{scratch1, scratch256} {
		m := Move{From: scratch, Into: into, VerifyPack: verifyIn,
			Refuse: func(p, why string) { t.Errorf("refused %s: %s", filepath.Base(p), why) }}
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		store, in, notIn string
	}{{s1, loose1, loose256}, {s256, loose256, loose1}} {
		if !present(filepath.Join(c.store, c.in[:2], c.in[2:])) {
			t.Errorf("%s lacks its own format's object %s", c.store, c.in)
		}
		if present(filepath.Join(c.store, c.notIn[:2], c.notIn[2:])) {
			t.Errorf("%s took the other format's object %s", c.store, c.notIn)
		}
		for _, p := range storePacks(t, c.store) {
			if want := len(c.in); len(strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "pack-"), ".pack"), ".idx")) != want {
				t.Errorf("%s took the other format's pack %s", c.store, filepath.Base(p))
			}
		}
		if len(storePacks(t, c.store)) != 2 {
			t.Errorf("%s lacks its own format's pack: %v", c.store, storePacks(t, c.store))
		}
	}
	err := Move{From: t.TempDir(), Into: []Store{{Dir: s1}}, VerifyPack: verifyIn, Refuse: func(string, string) {}}.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "object format") {
		t.Errorf("a store of unknown format: %v", err)
	}
}

// A pack over the bound is refused and named, never copied or verified:
// git verify-pack on a huge pack would hold the end of the run.
func TestMoveRefusesAPackOverTheBound(t *testing.T) {
	store, scratch, _, _ := scratchWithPack(t, "sha1")
	verified := 0
	var refused []string
	m := Move{From: scratch, Into: []Store{{Dir: store, HexLen: 40}}, MaxPack: 64,
		VerifyPack: func(ctx context.Context, st Store, idx string) error { verified++; return verify(ctx, st, idx) },
		Refuse:     func(p, why string) { refused = append(refused, filepath.Base(p)+": "+why) }}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if verified != 0 || len(storePacks(t, store)) != 0 {
		t.Errorf("a pack over the bound was verified (%d) or entered: %v", verified, storePacks(t, store))
	}
	if all := strings.Join(refused, "\n"); strings.Count(all, "larger than 64 bytes, so it was not verified") != 2 {
		t.Errorf("the pack and its index are not refused and named:\n%s", all)
	}
}
