package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// Every git dir under the place is the person's, not the coder's. Before
// the sandbox starts, the whole place is walked for what git would take for
// a repository (scanGitDirs):
//
//   - a directory named .git (any case), or a .git file or link, at any
//     depth: nested repositories, submodules' work trees, linked worktrees;
//   - a directory that is a git dir by its content, however it is named:
//     HEAD beside objects/ and refs/, or HEAD beside a commondir file (a
//     bare repository, a git dir a .git file names, a worktree's git dir);
//   - what each .git file and commondir points to, resolved now.
//
// Each of these other than the project's own git dir is mounted read-only
// whole (gitDirsProtected), and each pointer file with it; the project's
// own git dir keeps what committing needs writable (gitProtected). Nothing
// is skipped by name or size: an ignored node_modules may hold a git
// dependency's .git, and a walk that skipped it would miss it.

// maxGitDirs bounds how many git dirs a place may hold: each is a mount.
const maxGitDirs = 2000

// gitScan is what scanGitDirs found under a place.
type gitScan struct {
	Dirs     []string // git dirs (resolved), the project's own excluded
	Pointers []string // .git files and links under the place
	Watch    []string // the other directories walked (the watcher's)
	// Seen are the paths of every git dir and pointer present at the
	// start, the project's own included: what the watcher and the final
	// sweep take as the person's.
	Seen map[string]bool
}

// isGitDirByContent says whether dir holds what makes git take it for a
// git dir: HEAD with objects/ and refs/, or HEAD with a commondir file.
func isGitDirByContent(dir string, names map[string]os.FileMode) bool {
	head, ok := names["HEAD"]
	if !ok || head.IsDir() {
		return false
	}
	if m, ok := names["commondir"]; ok && !m.IsDir() {
		return true
	}
	o, okO := names["objects"]
	r, okR := names["refs"]
	return okO && okR && o.IsDir() && r.IsDir()
}

// scanGitDirs walks root for git dirs and pointers (see above). own is the
// project's git dir ("" when the place is no repository).
func scanGitDirs(root, own string) (gitScan, error) {
	s := gitScan{Seen: map[string]bool{}}
	ownReal := ""
	if own != "" {
		ownReal = resolvedPath(own)
		s.Seen[ownReal] = true
	}
	addDir := func(d string) {
		d = resolvedPath(d)
		if d == ownReal || s.Seen[d] {
			return
		}
		s.Seen[d] = true
		s.Dirs = append(s.Dirs, d)
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			if dir == root {
				return err
			}
			return nil // unreadable to Sentinel: the coder's view is the same
		}
		names := make(map[string]os.FileMode, len(entries))
		for _, e := range entries {
			names[e.Name()] = e.Type()
		}
		if dir != root && isGitDirByContent(dir, names) {
			addDir(dir)
			return nil
		}
		s.Watch = append(s.Watch, dir)
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if strings.EqualFold(e.Name(), ".git") {
				if e.IsDir() {
					addDir(p)
					continue
				}
				s.Pointers = append(s.Pointers, p)
				s.Seen[p] = true
				if t, ok := gitdir.FileTarget(p); ok {
					addDir(t)
				} else if e.Type()&os.ModeSymlink != 0 {
					if t, err := filepath.EvalSymlinks(p); err == nil {
						addDir(t)
					}
				}
				continue
			}
			if dir == root && e.Name() == stateDirName {
				continue // Sentinel's state: read-only inside, other runs' copies hidden
			}
			if e.IsDir() && p != own && p != ownReal {
				if err := walk(p); err != nil {
					return err
				}
			}
			if len(s.Dirs) > maxGitDirs {
				return fmt.Errorf("more than %d git repositories under %s; start in a narrower folder", maxGitDirs, root)
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return s, err
	}
	// A commondir leads to another git dir, which is the person's too.
	for i := 0; i < len(s.Dirs); i++ {
		if c := gitdir.Common(s.Dirs[i]); c != s.Dirs[i] {
			addDir(c)
		}
	}
	return s, nil
}

// gitDirsProtected are the paths of s to hold read-only: the git dirs and
// pointers inside one of roots (the workspace and the writable roots; a
// path elsewhere is not writable inside anyway), none inside another.
func gitDirsProtected(s gitScan, roots []string) []string {
	var in []string
	for _, p := range append(slices.Clone(s.Dirs), s.Pointers...) {
		for _, r := range roots {
			if within(p, resolvedPath(r)) && p != resolvedPath(r) {
				in = append(in, p)
				break
			}
		}
	}
	return outermost(in)
}

// outermost drops every path that lies inside another of paths (its
// parent's read-only mount covers it), and duplicates.
func outermost(paths []string) []string {
	slices.SortFunc(paths, func(a, b string) int { return len(a) - len(b) })
	var out []string
	for _, p := range paths {
		inside := false
		for _, o := range out {
			if within(p, o) {
				inside = true
				break
			}
		}
		if !inside {
			out = append(out, p)
		}
	}
	return out
}

// resolvedPath is p with symlinks resolved where it exists, cleaned.
func resolvedPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
