package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitincludes"
)

// The file tools refuse every file a git config includes and every hooks
// directory core.hooksPath names that lies in an rw path (gitincludes.go)
// — of each rw path's own repository and of every repository found under
// it (a nested one, a submodule's, a linked worktree's), and every
// program its config has git run by itself (gitincludes.Programs: an
// fsmonitor, a pager, a diff driver named as a path), including one
// the person made after the server started — and each symbolic link on
// the way to such a file (re-pointed, it would send git elsewhere). The
// repositories are found by walking the rw paths as exec's guard does
// (gitdir.ScanTree), again before a write once the last answer is older
// than includeFreshness times the walk took (a small tree is walked before
// every write, a large one at most every few seconds). A walk that fails
// refuses every write: what git would run is then unknown.

// includeFreshness is how many walks' time an answer is kept for.
var includeFreshness = 10

// includeFiles finds what git config sends git to in the rw paths.
type includeFiles struct {
	roots []string // the rw paths

	mu      sync.Mutex
	at      time.Time     // when found
	took    time.Duration // how long finding took
	stale   bool          // an exec command ran since: look again
	targets []string      // canonical
	err     error
}

func newIncludeFiles(roots []string) *includeFiles { return &includeFiles{roots: roots} }

// invalidate makes the next write look again (a command may have moved a
// repository, which moves what its relative include paths name).
func (f *includeFiles) invalidate() {
	if f == nil {
		return
	}
	f.mu.Lock()
	f.stale = true
	f.mu.Unlock()
}

// current is what to refuse, found again when stale.
func (f *includeFiles) current() ([]string, error) {
	if f == nil || len(f.roots) == 0 {
		return nil, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stale || f.at.IsZero() || time.Since(f.at) > time.Duration(includeFreshness)*f.took {
		start := time.Now()
		f.targets, f.err = findIncludeTargets(f.roots)
		f.at, f.took, f.stale = time.Now(), time.Since(start), false
	}
	return f.targets, f.err
}

// findIncludeTargets walks roots for repositories and lists what their
// config includes and names as hooks directories inside roots, with the
// symbolic links on the way to an included file.
func findIncludeTargets(roots []string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), configReadBound)
	defer cancel()
	var out []string
	add := func(p string) {
		if a, err := Canonical(p); err == nil {
			p = a
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, root := range roots {
		sc, err := scanTree(root, ownGitDir(root), "", maxGitDirs)
		if err != nil {
			return nil, fmt.Errorf("find the repositories under %s: %w", root, err)
		}
		files, links := gitincludes.Files(ctx, root, sc.Dirs, roots)
		for _, p := range files {
			add(p)
		}
		for l := range links {
			out = append(out, l) // the link itself, not where it leads
		}
		for _, p := range gitincludes.HooksDirs(ctx, root, sc.Dirs, roots) {
			add(p)
		}
		for _, p := range gitincludes.Programs(ctx, root, sc.Dirs, roots) {
			add(p)
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("reading the git config of the repositories under %s took too long", roots[0])
	}
	return out, nil
}
