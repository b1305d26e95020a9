//go:build linux

package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// onLiveScanned runs f in the window between the live watch's look at a
// new subtree and the watches on what the look found.
func onLiveScanned(t *testing.T, f func(dir string)) {
	old := liveScanned
	liveScanned = f
	t.Cleanup(func() { liveScanned = old })
}

// A directory the command makes inside a new subtree, filled as a git dir
// after the live watch looked at the subtree and before the watch on it
// was added, sends no event: `mkdir -p tools/x/objects tools/x/refs`,
// then tools/x/HEAD, stayed in the person's checkout while the command
// ran (TestExecQuarantinesAGitDirWhileTheCommandRuns/watched failed on
// it). The subtree is looked at again after its new watches
// (gitdir.NewTree.Settle, shared with sentinel exec's watcher), so the git
// dir made in that window is quarantined at once, and every new directory
// is watched.
func TestLiveWatchQuarantinesAGitDirMadeBeforeItsWatch(t *testing.T) {
	// Not parallel: it swaps the package hook liveScanned.
	g, root := guarded(t)
	top := filepath.Join(root, "tools")
	if err := os.MkdirAll(filepath.Join(top, "x", "objects"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "x", "refs"), 0o755); err != nil {
		t.Fatal(err)
	}
	made := filepath.Join(top, "x")
	once := false
	onLiveScanned(t, func(string) {
		if once {
			return
		}
		once = true
		write(t, filepath.Join(made, "HEAD"), "ref: refs/heads/main\n")
	})
	var watched []string
	said := strings.Join(g.liveCreated(top, func(d string) { watched = append(watched, d) }, func(d string) { t.Errorf("%s handed to the beat", d) }), "\n")
	if _, err := os.Lstat(made); !os.IsNotExist(err) {
		t.Errorf("%s, made a git dir between the look and its watch, is still in the place:\n%s", made, said)
	}
	if !strings.Contains(said, "quarantined a git dir this command made, "+made) {
		t.Errorf("the answer does not name %s as quarantined:\n%s", made, said)
	}
	if !slices.Contains(watched, top) {
		t.Errorf("%s is not watched (watched %v)", top, watched)
	}
}

// A subtree that keeps growing while it is looked at (the command making
// directories in a loop) does not hold the live watch: after a bound it is
// handed to the beat, which walks it.
func TestLiveWatchHandsAGrowingTreeToTheBeat(t *testing.T) {
	// Not parallel: it swaps the package hook liveScanned.
	g, root := guarded(t)
	top := filepath.Join(root, "grow")
	if err := os.MkdirAll(filepath.Join(top, "0"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	onLiveScanned(t, func(string) {
		n++
		if err := os.MkdirAll(filepath.Join(top, fmt.Sprint(n)), 0o755); err != nil {
			t.Error(err)
		}
	})
	var polled []string
	g.liveCreated(top, func(string) {}, func(d string) { polled = append(polled, d) })
	if len(polled) != 1 || polled[0] != top {
		t.Errorf("handed to the beat: %v, want %s", polled, top)
	}
	if n != gitdir.SettleLooks {
		t.Errorf("looked %d times, want %d", n, gitdir.SettleLooks)
	}
}
