package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/gitdir"
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
// are walked again, and a git dir or pointer that was not there at the
// start is moved into the user's state dir (mcp/quarantine) and named in
// the answer.

// maxGitDirs bounds how many repositories an rw path may hold: each is a
// read-only mount.
const maxGitDirs = 2000

// ownGitDirs are the directories of an rw path's own .git that lead git
// to other git dirs (linked worktrees, submodules): made when missing and
// read-only beside hooks and config. ownGitFiles point git elsewhere: the
// person's own are read-only, one a command makes is quarantined.
var (
	ownGitDirs  = []string{"worktrees", "modules"}
	ownGitFiles = []string{"commondir", "config.worktree"}
)

// gitGuard is what the walk before the sandbox found, per rw path.
type gitGuard struct {
	mu   sync.Mutex
	seen map[string]map[string]bool // rw path → its git dirs and pointers at the start
	own  map[string]string          // rw path → its own .git ("" for none)
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
	sc, err := gitdir.ScanTree(root, own, "", maxGitDirs)
	if err != nil {
		return nil, fmt.Errorf("git dirs under %s: %w", root, err)
	}
	var out []string
	for _, p := range append(slices.Clone(sc.Dirs), sc.Pointers...) {
		if within(p, root) && p != root {
			out = append(out, p)
		}
	}
	if own != "" {
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
	if g.seen == nil {
		g.seen, g.own = map[string]map[string]bool{}, map[string]string{}
	}
	g.seen[root], g.own[root] = sc.Seen, own
	return out, nil
}

// sweep moves every git dir and pointer under the rw paths that was not
// there at the start into the quarantine, and says what it moved (or
// could not).
func (g *gitGuard) sweep() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var said []string
	for root, seen := range g.seen {
		sc, err := gitdir.ScanTree(root, "", "", maxGitDirs)
		if err != nil {
			said = append(said, "could not look for new git dirs under "+root+": "+err.Error())
			continue
		}
		var fresh []string
		if own := g.own[root]; own != "" {
			for _, n := range ownGitFiles {
				if f := filepath.Join(own, n); present(f) && !seen[f] {
					fresh = append(fresh, f)
				}
			}
		}
		for _, p := range append(slices.Clone(sc.Dirs), sc.Pointers...) {
			if within(p, root) && p != root && !seen[p] {
				fresh = append(fresh, p)
			}
		}
		slices.SortFunc(fresh, func(a, b string) int { return len(a) - len(b) })
		var moved []string
		for _, p := range fresh {
			if slices.ContainsFunc(moved, func(m string) bool { return within(p, m) }) {
				continue // inside one moved already
			}
			to, err := quarantine(p)
			if err != nil {
				said = append(said, fmt.Sprintf("a new git dir %s could not be quarantined (%v): do not run git there before you look at it", p, err))
				continue
			}
			moved = append(moved, p)
			said = append(said, fmt.Sprintf("quarantined a git dir this command made, %s (moved to %s): git would run its hooks and config on your next command there", p, to))
		}
	}
	return said
}

func present(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// quarantine moves p into the user's state dir and is where it went.
func quarantine(p string) (string, error) {
	dir, err := userstate.Path(filepath.Join("mcp", "quarantine"))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	to := filepath.Join(dir, backupName(p))
	if err := os.Rename(p, to); err != nil {
		// Another file system: what git would read goes all the same.
		if rerr := os.RemoveAll(p); rerr != nil {
			return "", rerr
		}
		return "(removed: " + err.Error() + ")", nil
	}
	return to, nil
}

// sweepNote is the sweep's lines for a command's answer ("" for none).
func sweepNote(said []string) string {
	if len(said) == 0 {
		return ""
	}
	return "\n[" + strings.Join(said, "]\n[") + "]"
}
