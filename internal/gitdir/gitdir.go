// Package gitdir says where a repository's git files are — the git
// directory a .git file names, a linked worktree's common directory, the
// files git reads a repository's config and branch from — by reading them,
// without starting git. The caches that stand in for a git start key their
// answers on these files.
//
// ScanTree finds every repository under a place, for the read-only mounts
// of an in-place run and sentinel mcp.
//
// ReadRefs reads a git dir's refs, loose and packed or from a reftable
// stack (reftable.go), for exec's and sentinel mcp's before-and-after
// comparisons; Later and CheckLoose what git acts on later.
//
// It must not run git, write anything, or judge whether a repository is
// to be trusted.
package gitdir

import (
	"os"
	"path/filepath"
	"strings"
)

// FileTarget is the git directory a .git file names ("gitdir: PATH", a
// relative PATH being the file's directory's); ok is false when dotGit is
// not a regular file of that form.
func FileTarget(dotGit string) (dir string, ok bool) {
	st, err := os.Stat(dotGit)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	b, err := os.ReadFile(dotGit)
	if err != nil {
		return "", false
	}
	p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(dotGit), p)
	}
	return p, true
}

// Common is the common directory of the git directory gd (what its
// commondir file names, a linked worktree's), or gd itself.
func Common(gd string) string {
	b, err := os.ReadFile(filepath.Join(gd, "commondir"))
	if err != nil {
		return gd
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gd, c)
	}
	return c
}

// ConfigFiles are the files git reads the config and branch of the git
// directory gd from, present or not: its HEAD, config, config.worktree and
// commondir, and its common directory's config and config.worktree; and,
// as a reftable repository keeps HEAD in its tables (its HEAD file is a
// stub), the reftable/tables.list of each.
func ConfigFiles(gd string) []string {
	files := []string{filepath.Join(gd, "HEAD"), filepath.Join(gd, "config"), filepath.Join(gd, "config.worktree"), filepath.Join(gd, "commondir"), filepath.Join(gd, "reftable", "tables.list")}
	if c := Common(gd); c != gd {
		files = append(files, filepath.Join(c, "config"), filepath.Join(c, "config.worktree"), filepath.Join(c, "reftable", "tables.list"))
	}
	return files
}
