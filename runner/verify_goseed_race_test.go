package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A seed another process renames into place while this one finds none is
// used, not removed and built again: a missing seed is never removed, and
// one that is there is removed only if a second read still fails.
func TestASeedAnotherProcessJustFinishedIsKept(t *testing.T) {
	builds, release := fakeSeedBuilds(t)
	close(release)
	root, _ := seedRoot()
	tier := seedTiers[len(seedTiers)-1]
	dir, version, err := seedDirOf(context.Background(), root, tier)
	if err != nil {
		t.Fatal(err)
	}
	was := seedMissed
	t.Cleanup(func() { seedMissed = was })
	seedMissed = func(d string) { // the other process's build lands now
		if d != dir {
			return
		}
		if err := os.MkdirAll(root, 0o700); err != nil {
			t.Fatal(err)
		}
		tmp, err := os.MkdirTemp(root, "other-")
		if err != nil {
			t.Fatal(err)
		}
		if err := buildSeedFn(context.Background(), tmp, version, tier, nil); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, dir); err != nil {
			t.Fatal(err)
		}
	}
	s, err := goSeedTier(context.Background(), root, tier, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 1 {
		t.Fatalf("the seed was built %d times: the other process's finished seed was removed", n)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "manifest.json")); err != nil {
		t.Fatalf("the seed in use is gone: %v", err)
	}

	// A seed that is there but does not read (not signed by this user) is
	// still removed and built again.
	seedMissed = was
	if err := os.WriteFile(filepath.Join(dir, "manifest.sig"), []byte("forged\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := goSeedTier(context.Background(), root, tier, nil); err != nil {
		t.Fatal(err)
	}
	if n := builds.Load(); n != 2 {
		t.Fatalf("a seed that does not read was used or not rebuilt (%d builds, want 2)", n)
	}
}
