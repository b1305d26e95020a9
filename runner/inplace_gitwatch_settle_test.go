package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// settleGuard is a gitGuard over a fresh repository, with no watch
// running: the tests call created as the watch would.
func settleGuard(t *testing.T) (*Project, *gitGuard) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}

// onScanned runs f in the window between the look at a new subtree and
// the watches on what the look found.
func onScanned(t *testing.T, f func(dir string)) {
	old := subtreeScanned
	subtreeScanned = f
	t.Cleanup(func() { subtreeScanned = old })
}

// A directory made inside a new subtree after the watch looked at it and
// before the watch on its parent was added sends no event: mkdir -p a/b/c
// then a/b/c/.git lived through the run (TestWatchQuarantinesNewGitDirsAnywhere
// flaked on it). The subtree is looked at again until no new directory
// appears, so the .git made in that window is quarantined at once, and
// every new directory is watched.
func TestNewSubtreeGitDirMadeBeforeItsWatchIsQuarantined(t *testing.T) {
	// Not parallel: it swaps the package hook subtreeScanned.
	p, g := settleGuard(t)
	top := filepath.Join(p.Root, "a")
	if err := os.MkdirAll(filepath.Join(top, "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(top, "b", "c", "d")
	planted := filepath.Join(deep, ".git")
	once := false
	onScanned(t, func(string) {
		if once {
			return
		}
		once = true
		os.MkdirAll(deep, 0o755)
		os.WriteFile(planted, []byte("gitdir: /somewhere/else\n"), 0o644)
	})
	var watched []string
	add := func(d string) bool { watched = append(watched, d); return true }
	got := g.created(top, add, func(d string) { t.Errorf("%s handed to the beat", d) })
	if _, err := os.Lstat(planted); !os.IsNotExist(err) {
		t.Errorf("%s made between the look and the watch is still in the place (quarantined: %v)", planted, got)
	}
	if !slices.Contains(got, planted) {
		t.Errorf("quarantined %v, want %s", got, planted)
	}
	for _, d := range []string{top, filepath.Join(top, "b"), filepath.Join(top, "b", "c"), deep} {
		if !slices.Contains(watched, d) {
			t.Errorf("%s is not watched (watched %v)", d, watched)
		}
	}
}

// A subtree that keeps growing while it is looked at (the coder making
// directories in a loop) does not hold the watch: after a bound it is
// handed to the beat, which walks it.
func TestNewSubtreeThatKeepsGrowingGoesToTheBeat(t *testing.T) {
	// Not parallel: it swaps the package hook subtreeScanned.
	p, g := settleGuard(t)
	top := filepath.Join(p.Root, "grow")
	if err := os.MkdirAll(filepath.Join(top, "0"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	onScanned(t, func(string) {
		n++
		os.MkdirAll(filepath.Join(top, fmt.Sprint(n)), 0o755)
	})
	var polled []string
	g.created(top, func(string) bool { return true }, func(d string) { polled = append(polled, d) })
	if len(polled) != 1 || polled[0] != top {
		t.Errorf("handed to the beat: %v, want %s", polled, top)
	}
	if n != maxSettleLooks {
		t.Errorf("looked %d times, want %d", n, maxSettleLooks)
	}
}
