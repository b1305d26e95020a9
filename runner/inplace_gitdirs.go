package runner

import (
	"os"
	"path/filepath"
	"slices"

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
type gitScan = gitdir.Scan

// isGitDirByContent says whether dir holds what makes git take it for a
// git dir (gitdir.IsGitDirByContent).
func isGitDirByContent(_ string, names map[string]os.FileMode) bool {
	return gitdir.IsGitDirByContent(names)
}

// scanGitDirs walks root for git dirs and pointers (see above). own is the
// project's git dir ("" when the place is no repository).
func scanGitDirs(root, own string) (gitScan, error) {
	return scanTree(root, own, stateDirName, maxGitDirs)
}

// scanGitDirsOpening is scanGitDirs for the end of a run: a directory it
// cannot list is opened for the listing (the coder, as the person's user,
// may have made one unlistable with a repository inside, which git finds
// by name), but for those in keep (unlistable at the start: the person's).
func scanGitDirsOpening(root, own string, keep []string) (gitScan, error) {
	return scanTree(root, own, stateDirName, maxGitDirs, gitdir.OpenUnlisted(func(d string) bool { return slices.Contains(keep, d) }))
}

// scanTree is gitdir.ScanTree; a test makes a directory unlistable with it
// (as root every directory can be listed).
var scanTree = gitdir.ScanTree

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
