package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fsnotify/fsnotify"
)

// The coder can use up the person's inotify watches (its sandbox is
// charged to the same user: 77 instances on 2,500 directories in its
// private /tmp took all 192,403), after which no new directory of the
// place could be watched and a .git made in one stayed live until the run
// ended, for the person's prompt or editor to run git in. A directory the
// watch cannot follow is looked at on a short beat instead, so a git dir
// in it is still quarantined while the run goes on.
func TestWatchFollowsADirectoryItCannotWatch(t *testing.T) {
	full := errors.New("no space left on device (the inotify watches are used up)")
	old := watchAdd
	watchAdd = func(w *fsnotify.Watcher, dir string) error {
		if strings.Contains(dir, "newdir") {
			return full
		}
		return w.Add(dir)
	}
	t.Cleanup(func() { watchAdd = old })
	root, _ := filepath.EvalSymlinks(t.TempDir())
	gitInit(t, root)
	deeper := filepath.Join(root, "newdir", "deeper")
	if err := os.MkdirAll(deeper, 0o755); err != nil {
		t.Fatal(err)
	}
	p := &Project{Root: root, GitDir: filepath.Join(root, ".git")}
	g, err := newGitGuard(p, filepath.Join(t.TempDir(), "run.git"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var told []string
	stop, warn := g.watch(context.Background(), func(f string) { mu.Lock(); told = append(told, f); mu.Unlock() })
	t.Cleanup(stop)
	if warn == nil {
		t.Error("the watch did not say it could not follow newdir")
	}
	// The repository is made elsewhere and moved in whole: a git init in
	// the watched directory itself races the quarantine (under load the
	// beat took .git away while git was still writing its config).
	made := t.TempDir()
	gitInit(t, made)
	if err := os.Rename(filepath.Join(made, ".git"), filepath.Join(deeper, ".git")); err != nil {
		t.Fatal(err)
	}
	waitGone(t, filepath.Join(deeper, ".git"))
	mu.Lock()
	defer mu.Unlock()
	if len(told) == 0 || told[0] != filepath.Join(deeper, ".git") {
		t.Errorf("told %v, want %s", told, filepath.Join(deeper, ".git"))
	}
}
