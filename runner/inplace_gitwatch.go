package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// maxWatches bounds how many directories of the place the watcher follows;
// past it, the sweep at the end is the only check of the rest (and the run
// says so).
const maxWatches = 100000

// watchAdd watches dir; tests stand in for a full inotify table.
var watchAdd = func(w *fsnotify.Watcher, dir string) error { return w.Add(dir) }

// gitDirMarks are the names whose appearance may make their directory a
// git dir by content (isGitDirByContent).
var gitDirMarks = []string{"HEAD", "commondir", "objects", "refs"}

// watch quarantines, as soon as it appears, a git dir or pointer the coder
// makes anywhere under the place (see gitGuard): in place the person may
// run git in the project while the coder works, and a nested repository's
// core.fsmonitor or a planted commondir would run the coder's command on
// the host. Every directory of the place is watched (new ones as they
// come); the window is the watcher's reaction time, and the sweep at the
// end (gitGuard.sweep) stays as the backstop. Each move is told through
// told. warn, when not nil, says what the watch does not cover (the run
// must tell the person); stop ends the watch and waits for it.
func (g *gitGuard) watch(ctx context.Context, told func(path string)) (stop func(), warn error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return func() {}, err
	}
	added := 0
	// unwatched are the directories the watch could not follow (past
	// maxWatches, or the inotify table full: the coder is charged to the
	// same user and can fill it): looked at on a beat instead (pollUnwatched).
	unwatched := &dirSet{}
	starting := true // warn is the start's: later failures are polled, not told
	add := func(dir string) bool {
		if added >= maxWatches {
			if starting {
				warn = fmt.Errorf("more than %d directories (the rest are looked at every %v)", maxWatches, unwatchedBeat)
			}
			unwatched.add(dir)
			return false
		}
		if err := watchAdd(w, dir); err != nil {
			if !os.IsNotExist(err) {
				if starting && warn == nil {
					warn = fmt.Errorf("%w (what cannot be watched is looked at every %v)", err, unwatchedBeat)
				}
				unwatched.add(dir)
			}
			return false
		}
		added++
		return true
	}
	if g.p.GitDir != "" {
		add(g.p.GitDir)
		if g.common != "" && g.common != filepath.Clean(g.p.GitDir) {
			add(g.common) // a linked worktree: the main checkout's rebase state (laterDir)
		}
		if rt := filepath.Join(g.common, "reftable"); g.common != "" {
			if _, err := os.Stat(rt); err == nil {
				add(rt) // a reftable repository's refs (storedRefsChanged)
			}
		}
		for _, d := range g.laterStateDirs() {
			add(d) // the person's own state: a rewrite is taken out at once (inplace_laterlive.go)
		}
		if wt := g.commonWorktrees(); wt != "" {
			if _, err := os.Stat(wt); err == nil {
				add(wt)
			}
		}
	}
	for _, d := range g.scan.Watch {
		if !add(d) {
			break
		}
	}
	starting = false
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		g.pollUnwatched(ctx, unwatched, told)
	}()
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Has(fsnotify.Create) {
					for _, p := range g.created(ev.Name, add, unwatched.add) {
						told(p)
					}
				}
				if g.laterTouched(ev.Name) && g.laterRewritten != nil {
					g.laterRewritten()
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				// An overflow loses events: sweep now instead.
				for _, p := range g.sweep() {
					told(p)
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			w.Close()
			wg.Wait()
		})
	}, warn
}

// created judges one new entry of a watched directory and returns what it
// quarantined; add watches a new directory, poll hands one to the beat
// (pollUnwatched).
func (g *gitGuard) created(path string, add func(string) bool, poll func(string)) []string {
	dir, name := filepath.Dir(path), filepath.Base(path)
	one := func(p string) []string {
		if g.quarantine(p) {
			return []string{p}
		}
		return nil
	}
	if g.storedRefsChanged(dir, name) {
		if g.refsChanged != nil {
			g.refsChanged()
		}
		return nil
	}
	switch {
	case g.configLinkChanged(path):
		return one(path) // a link to an included config file, re-pointed
	case g.laterDir(dir, name):
		return one(path)
	case g.p.GitDir != "" && dir == filepath.Clean(g.p.GitDir):
		if slices.Contains(inPlaceGitPlanted, name) && !g.had[name] {
			return one(path)
		}
		return nil
	case g.p.GitDir != "" && dir == g.commonWorktrees():
		if !g.worktrees[name] {
			return one(path)
		}
		return nil
	case g.known(path):
		return nil
	case strings.EqualFold(name, ".git"):
		return one(path)
	}
	if slices.Contains(gitDirMarks, name) && g.dirIsGit(dir) {
		if g.startDirs[dir] || dir == g.p.Root {
			return one(path) // the person's directory made a git dir: take the mark away
		}
		return one(dir)
	}
	st, err := os.Lstat(path)
	if err != nil || !st.IsDir() {
		return nil
	}
	// A new directory (made or moved in): watch it first, then look at
	// what it already holds, so nothing slips in between.
	add(path)
	if g.dirIsGit(path) {
		return one(path)
	}
	return g.settleNewTree(path, add, poll)
}

// subtreeScanned is called between a look at a new subtree and the watches
// on the directories it found; a test makes a git dir in that window.
var subtreeScanned = func(dir string) {}

// settleNewTree looks at the new directory path (already watched) and
// everything under it until it settles (gitdir.NewTree.Settle, which
// sentinel mcp's live watch shares), quarantines the git dirs and
// pointers it finds and watches its subdirectories. It returns what it
// quarantined.
func (g *gitGuard) settleNewTree(path string, add func(string) bool, poll func(string)) []string {
	var out []string
	gitdir.NewTree{
		Look: func(d string) gitdir.Scan {
			sub, _ := scanGitDirs(d, "")
			return sub
		},
		Found: func(sub gitdir.Scan) {
			for _, p := range append(slices.Clone(sub.Pointers), sub.Dirs...) {
				if within(p, path) && !g.known(p) && g.quarantine(p) {
					out = append(out, p)
				}
			}
		},
		Watch:   func(d string) { add(d) },
		Poll:    poll,
		Scanned: subtreeScanned,
	}.Settle(path)
	return out
}

// maxSettleLooks bounds the looks at one new subtree (settleNewTree).
const maxSettleLooks = gitdir.SettleLooks

// dirIsGit says whether dir is a git dir by its content now.
func (g *gitGuard) dirIsGit(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	names := make(map[string]os.FileMode, len(entries))
	for _, e := range entries {
		names[e.Name()] = e.Type()
	}
	return isGitDirByContent(dir, names)
}
