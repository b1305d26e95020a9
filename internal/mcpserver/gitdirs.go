package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/filestamp"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/gitstore"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Every git dir under an rw path is the person's, not the client's: git
// runs a repository's hooks and config (core.fsmonitor…) on the person's
// next command there, outside any sandbox. exec and playbook commands may
// write an rw path, so before the sandbox starts each rw path is walked
// (gitdir.ScanTree: a .git dir or file of any case at any depth, a git dir
// by its content, what a .git file or commondir points to) and every git
// dir and pointer found other than the path's own .git is held read-only
// whole; of the path's own .git, hooks and config (protectedIn) and what
// points git elsewhere (worktrees/, modules/, commondir, config.worktree).
// A command cannot make a new one stay: after each command the rw paths
// are walked again, and a git dir or pointer whose identity (device,
// inode) was not there at the start is moved into the user's state dir
// (mcp/quarantine) and named in the answer. One found at a new path with
// an identity seen before was moved by the command (a parent renamed): it
// is the person's, named as moved and left where it is (gitdir.Baseline).
// The move opens each directory without following links and moves only
// the entry the walk saw (gitdir.MoveOut, which sentinel exec's sweep
// uses too); nothing is ever deleted that was not moved: a git dir that
// cannot be moved stays and the answer says so.

// maxGitDirs bounds how many repositories an rw path may hold: each is a
// read-only mount.
const maxGitDirs = 2000

// ownGitDirs are the directories of an rw path's own .git that lead git
// to other git dirs (linked worktrees, submodules) or other content
// (replace refs, info/grafts: gitlater.go): made when missing and
// read-only beside hooks and config. ownGitFiles point git elsewhere: the
// person's own are read-only, one a command makes is quarantined.
var (
	ownGitDirs  = []string{"worktrees", "modules", filepath.Join("refs", "replace"), "info"}
	ownGitFiles = []string{"commondir", "config.worktree"}
)

// scanTree is gitdir.ScanTree; tests stand in for an unlistable directory.
var scanTree = gitdir.ScanTree

// gitGuard is what the walk before the sandbox found, per rw path.
type gitGuard struct {
	mu   sync.Mutex
	base map[string]*gitdir.Baseline // rw path → its git dirs and pointers at the start
	own  map[string]string           // rw path → its own .git ("" for none)
	dirs map[string][]string         // rw path → the git dirs found under it at the start
	// watchDirs are the directories of each rw path the last walk went
	// through: what the live watch follows while a command runs
	// (gitlive.go).
	watchDirs map[string][]string
	// unlisted are the directories of each rw path the walk at the start
	// could not list (the person's own): the sweep leaves them as they
	// are and opens any other it cannot list (gitdir.OpenUnlisted).
	unlisted map[string]map[string]bool
	// configLinks are the symbolic links in the rw paths on the way to a
	// file git config includes, with their targets at the start
	// (gitincludes.go).
	configLinks map[string]string
	// stopped says why no further command runs: one deleted objects of
	// the person's repository (gitstore.go).
	stopped string
	// The scratch object dir commands' git writes to, the stores its
	// proven objects enter and the object dirs git reads (gitscratch.go).
	scratch string
	stores  []gitstore.Store
	alts    []string
	moving  sync.Mutex // one moveIn at a time
	lock    *os.File   // held while this server lives (gitscratch_recover_unix.go)

	looks lookCache // the look before each command (exec_holds_cache.go)

	// held is what the look made in the rw paths to hold it read-only,
	// which is no call's change (callwrote.go; nil: not remembered).
	held *heldMade

	// mover moves into the quarantine (a test's fails its renames).
	mover gitdir.Mover
	// made are the git dirs and pointers a command made (by identity,
	// and by path where there is none): the look before a command never
	// takes one that stayed for the person's (exec_holds.go).
	made      map[filestamp.ID]bool
	madePaths map[string]bool
}

// ownGitDir is root's own .git directory, "" when it has none.
func ownGitDir(root string) string {
	p := filepath.Join(root, ".git")
	if st, err := os.Lstat(p); err == nil && st.IsDir() {
		return p
	}
	return ""
}

// protect walks the rw path root and is what to hold read-only there.
func (g *gitGuard) protect(root string) ([]string, error) {
	own := ownGitDir(root)
	sc, err := scanTree(root, own, "", maxGitDirs)
	if err != nil {
		return nil, fmt.Errorf("git dirs under %s: %w", root, err)
	}
	var out []string
	// A directory the walk cannot list may hold a repository git finds by
	// name: it is held read-only whole (sweep names it too).
	for _, p := range append(append(slices.Clone(sc.Dirs), sc.Pointers...), sc.Unlisted...) {
		if within(p, root) && p != root {
			out = append(out, p)
		}
	}
	if own != "" {
		// The object store is read-only: new objects go to the scratch
		// dir and come in proven (gitscratch.go).
		objs := filepath.Join(own, "objects")
		if err := os.MkdirAll(objs, 0o755); err != nil {
			return nil, fmt.Errorf("git directory %s: %w (it must exist to be held read-only)", objs, err)
		}
		out = append(out, objs)
		for _, n := range ownGitDirs {
			d := filepath.Join(own, n)
			if err := os.MkdirAll(d, 0o755); err != nil {
				return nil, fmt.Errorf("git directory %s: %w (it must exist to be held read-only)", d, err)
			}
			out = append(out, d)
		}
		for _, n := range ownGitFiles {
			if f := filepath.Join(own, n); present(f) {
				out = append(out, f)
				sc.Seen[f] = true
			}
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.base == nil {
		g.base, g.own, g.dirs, g.watchDirs = map[string]*gitdir.Baseline{}, map[string]string{}, map[string][]string{}, map[string][]string{}
	}
	g.base[root], g.own[root], g.dirs[root], g.watchDirs[root] = gitdir.NewBaseline(sc.Seen), own, sc.Dirs, sc.Watch
	if g.unlisted == nil {
		g.unlisted = map[string]map[string]bool{}
	}
	if g.unlisted[root] == nil {
		// The first walk's: later walks (before each command) would take
		// in what a command made unlistable.
		g.unlisted[root] = map[string]bool{}
		for _, d := range sc.Unlisted {
			g.unlisted[root][d] = true
		}
	}
	g.scratchStores(root, own, sc.Dirs)
	return out, nil
}

// sweep moves every git dir and pointer under the rw paths that was not
// there at the start into the quarantine, and says what it moved (or
// could not).
func (g *gitGuard) sweep() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var said []string
	for root, base := range g.base {
		keep := g.unlisted[root]
		sc, err := scanTree(root, "", "", maxGitDirs, gitdir.OpenUnlisted(func(d string) bool { return keep[d] }))
		if err != nil {
			said = append(said, "could not look for new git dirs under "+root+": "+err.Error())
			continue
		}
		for _, d := range sc.Unlisted {
			said = append(said, d+" cannot be listed, so Sentinel cannot check it for repositories: do not run git under it until you have looked")
		}
		var found []string
		if own := g.own[root]; own != "" {
			for _, n := range ownGitFiles {
				if f := filepath.Join(own, n); present(f) {
					found = append(found, f)
				}
			}
		}
		for _, p := range append(slices.Clone(sc.Dirs), sc.Pointers...) {
			if within(p, root) && p != root {
				found = append(found, p)
			}
		}
		if g.watchDirs == nil {
			g.watchDirs = map[string][]string{}
		}
		g.watchDirs[root] = sc.Watch
		said = append(said, g.settle(root, base, found)...)
	}
	return said
}

// settle judges each git dir or pointer found under root against its
// baseline and quarantines the new ones (shortest first: one inside a
// moved one went with it), saying what it did. g.mu is held.
func (g *gitGuard) settle(root string, base *gitdir.Baseline, found []string) (said []string) {
	slices.SortFunc(found, func(a, b string) int { return len(a) - len(b) })
	var moved []string
	for _, p := range found {
		if slices.ContainsFunc(moved, func(m string) bool { return within(p, m) }) {
			continue // inside one moved already
		}
		v, id, old := base.Judge(p)
		switch v {
		case gitdir.Gone, gitdir.Known:
			continue
		case gitdir.Moved:
			said = append(said, fmt.Sprintf("a git dir that was there before moved: %s → %s (left where it is)", old, p))
			continue
		}
		g.commandMade(p, id) // never the person's, wherever it ends up (exec_holds.go)
		to, err := g.quarantine(root, p, id)
		if err != nil {
			line := fmt.Sprintf("could not quarantine %s: %v — do not run git in it until you have looked", p, err)
			said = append(said, line)
			tellPerson(line)
			continue
		}
		moved = append(moved, p)
		said = append(said, fmt.Sprintf("quarantined a git dir this command made, %s (moved to %s): git would run its hooks and config on your next command there", p, to))
	}
	return said
}

// tellPerson tells the person (on the server's stderr, beside the audit
// record) what the client is told of a git dir Sentinel could not move out.
// The line names paths the command chose: it goes through textsafe.
var tellPerson = func(line string) { fmt.Fprintln(os.Stderr, "sentinel mcp: "+textsafe.Line(line)) }

// ownOf is root's own git dir ("" for none), read under the lock a reload
// writes it under.
func (g *gitGuard) ownOf(root string) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.own[root]
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// quarantine moves p, found under root with identity id, into the user's
// state dir and is where it went. It never deletes: when p cannot be
// moved it stays and the error says why.
func (g *gitGuard) quarantine(root, p string, id filestamp.ID) (string, error) {
	dir, err := quarantineDir()
	if err != nil {
		return "", err
	}
	name := backupName(p)
	if err := g.mover.MoveOut(root, p, id, dir, name); err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}

// quarantineDir is the user's mcp quarantine, made when missing.
func quarantineDir() (string, error) {
	dir, err := userstate.Path(filepath.Join("mcp", "quarantine"))
	if err != nil {
		return "", err
	}
	return dir, os.MkdirAll(dir, 0o700)
}

// sweepNote is the sweep's lines for a command's answer ("" for none).
func sweepNote(said []string) string {
	if len(said) == 0 {
		return ""
	}
	// Each line names paths the command chose (a newline or an escape in a
	// file name must not forge a line of the answer): one sanitizer, here.
	lines := make([]string, len(said))
	for i, l := range said {
		lines[i] = textsafe.Line(l)
	}
	return "\n[" + strings.Join(lines, "]\n[") + "]"
}
