package mcpserver

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// While a command runs, a git dir or pointer it makes is quarantined as
// soon as it appears, not only by the sweep after it: the person's shell
// prompt and editor run git in their checkout all the time, and a .git
// made in src/ with core.fsmonitor ran its program on the host at the
// person's next `git status` there for as long as the command lasted
// (sentinel exec's watcher does the same: runner/inplace_gitwatch.go).
// Every directory the last walk of the rw paths went through is watched,
// new ones as they come; the sweep after the command stays the backstop
// (and covers what the watch could not: past maxLiveWatches, an inotify
// limit, a lost event).

// maxLiveWatches bounds how many directories the live watch follows.
const maxLiveWatches = 100000

// liveBeat is how often a directory the watch cannot follow is walked.
const liveBeat = 200 * time.Millisecond

// liveAdd watches dir; tests stand in for a full inotify table.
var liveAdd = func(w *fsnotify.Watcher, dir string) error { return w.Add(dir) }

// liveMarks are the names whose appearance may make their directory a git
// dir by content (gitdir.IsGitDirByContent).
var liveMarks = []string{"HEAD", "commondir", "objects", "refs"}

// watchLive starts the live watch; stop ends it and returns what it did,
// for the command's answer. A watch that cannot start returns nothing to
// say: the sweep after the command is then the only check, as before.
func (g *gitGuard) watchLive() (stop func() []string) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return func() []string { return nil }
	}
	added := 0
	// A directory the watch cannot follow (past maxLiveWatches, or the
	// inotify table full: a command is charged to the same user and can
	// fill it) is walked on a beat instead (pollLive).
	var umu sync.Mutex
	var unwatched []string
	poll := func(dir string) {
		umu.Lock()
		if !slices.ContainsFunc(unwatched, func(o string) bool { return within(dir, o) }) {
			unwatched = append(slices.DeleteFunc(unwatched, func(o string) bool { return within(o, dir) }), dir)
		}
		umu.Unlock()
	}
	add := func(dir string) {
		if added < maxLiveWatches && liveAdd(w, dir) == nil {
			added++
			return
		}
		poll(dir)
	}
	g.mu.Lock()
	for root, dirs := range g.watchDirs {
		if own := g.own[root]; own != "" {
			add(own) // a commondir or config.worktree planted in it
		}
		for _, d := range dirs {
			add(d)
		}
	}
	g.mu.Unlock()
	var (
		said []string
		smu  sync.Mutex
		wg   sync.WaitGroup
	)
	tell := func(lines []string) {
		smu.Lock()
		said = append(said, lines...)
		smu.Unlock()
	}
	done := make(chan struct{})
	wg.Add(2)
	go func() {
		defer wg.Done()
		pause := liveBeat
		for {
			t := time.NewTimer(pause)
			select {
			case <-done:
				t.Stop()
				return
			case <-t.C:
			}
			began := time.Now()
			umu.Lock()
			dirs := slices.Clone(unwatched)
			umu.Unlock()
			for _, d := range dirs {
				tell(g.liveSettle(g.gitDirsIn(d)))
			}
			pause = max(liveBeat, 2*time.Since(began))
		}
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) || ev.Has(fsnotify.Rename) {
					tell(g.liveCreated(ev.Name, add, poll))
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				tell(g.sweep()) // an overflow loses events
			}
		}
	}()
	return func() []string {
		close(done)
		w.Close()
		wg.Wait()
		return said
	}
}

// liveCreated judges one new entry, path, of a watched directory: a .git
// of any spelling, a mark that makes its directory a git dir by content,
// or a new directory holding either: watched first, then looked at until
// it settles (gitdir.NewTree.Settle, which sentinel exec's watcher
// shares), so nothing slips in between; poll hands a tree that keeps
// growing to the beat. New ones are quarantined (settle).
func (g *gitGuard) liveCreated(path string, add, poll func(string)) []string {
	dir, name := filepath.Dir(path), filepath.Base(path)
	var found []string
	switch {
	case gitdir.IsDotGit(name):
		found = append(found, path)
	case slices.Contains(ownGitFiles, name):
		if g.isOwnGitDir(dir) {
			found = append(found, path)
		}
	case slices.Contains(liveMarks, name):
		if dirIsGit(dir) {
			found = append(found, dir)
		}
	}
	st, err := os.Lstat(path)
	if err != nil || !st.IsDir() || len(found) > 0 {
		return g.liveSettle(found)
	}
	add(path)
	if dirIsGit(path) {
		return g.liveSettle([]string{path})
	}
	var said []string
	gitdir.NewTree{
		Look: func(d string) gitdir.Scan {
			sc, _ := scanTree(d, "", "", maxGitDirs)
			return sc
		},
		Found: func(sc gitdir.Scan) {
			said = append(said, g.liveSettle(append(slices.Clone(sc.Dirs), sc.Pointers...))...)
		},
		Watch:   add,
		Poll:    poll,
		Scanned: liveScanned,
	}.Settle(path)
	return said
}

// liveScanned is called between a look at a new subtree and the watches
// on the directories it found; a test makes a git dir in that window.
var liveScanned = func(dir string) {}

// gitDirsIn is dir itself when it is a git dir by content, else the git
// dirs and pointers under it.
func (g *gitGuard) gitDirsIn(dir string) []string {
	if dirIsGit(dir) {
		return []string{dir}
	}
	sc, err := scanTree(dir, "", "", maxGitDirs)
	if err != nil {
		return nil
	}
	return append(slices.Clone(sc.Dirs), sc.Pointers...)
}

// liveSettle quarantines the new ones of found, each under its rw path.
func (g *gitGuard) liveSettle(found []string) []string {
	if len(found) == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var said []string
	for root, base := range g.base {
		var in []string
		for _, p := range found {
			if within(p, root) && p != root {
				in = append(in, p)
			}
		}
		if len(in) > 0 {
			said = append(said, g.settle(root, base, in)...)
		}
	}
	return said
}

// isOwnGitDir says whether dir is an rw path's own .git.
func (g *gitGuard) isOwnGitDir(dir string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, own := range g.own {
		if own != "" && filepath.Clean(own) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

// dirIsGit says whether dir is a git dir by its content now.
func dirIsGit(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	names := make(map[string]os.FileMode, len(entries))
	for _, e := range entries {
		names[e.Name()] = e.Type()
	}
	return gitdir.IsGitDirByContent(names)
}
