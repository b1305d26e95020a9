package mcpserver

import (
	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// A git dir is known by what it is, not by its name: a directory holding
// HEAD and an object store, refs, or a commondir/gitdir pointer (a
// repository's .git, a bare repository, a submodule's modules/NAME, a
// linked worktree's admin dir), wherever it was moved, copied or renamed.
// A `.git` entry (a directory, or a file pointing at a git dir) is one by
// name too, in any case: case-insensitive file systems make `.GIT` the
// same entry. Nothing in or of one is written by the file tools: its
// config, hooks, commondir, gitdir and config.worktree all run code or
// point git elsewhere the next time the person uses git.

// gitMarkers are the entries that make a directory a git dir (with HEAD).
var gitMarkers = []string{"objects", "refs", "commondir", "gitdir"}

// isGitName says whether name may be .git on some file system (any case,
// HFS+'s ignored code points, NTFS's trailing dots, streams and short
// name: gitdir.IsDotGit).
func isGitName(name string) bool { return gitdir.IsDotGit(name) }

func exists(dir dirFS, name string) bool {
	_, err := dir.Lstat(name)
	return err == nil
}

// looksLikeGitDir says whether the open directory dir is a git dir.
func looksLikeGitDir(dir dirFS) bool {
	if !exists(dir, "HEAD") {
		return false
	}
	for _, m := range gitMarkers {
		if exists(dir, m) {
			return true
		}
	}
	return false
}

func looksLikeGitDirPath(l fileLayer, p string) bool {
	d, err := l.OpenRoot(p)
	if err != nil {
		return false
	}
	defer d.Close()
	return looksLikeGitDir(d)
}

// wouldMakeGitDir says whether a new entry name in dir would complete a git
// dir there (HEAD beside an object store, refs or a pointer, or the other
// way round).
func wouldMakeGitDir(dir dirFS, name string) bool {
	head := gitdir.NameIs(name, "HEAD") || exists(dir, "HEAD")
	if !head {
		return false
	}
	for _, m := range gitMarkers {
		if gitdir.NameIs(name, m) || exists(dir, m) {
			return true
		}
	}
	return false
}

func gitRefusal(abs, gitDir string) error {
	reason := abs + " is a git dir"
	if gitDir != abs {
		reason = abs + " lies in the git dir " + gitDir
	}
	return &Refusal{Class: ClassReadOnlyPath, Rule: "git dir (" + gitDir + ")", Reason: reason + ": what is there runs code or points git elsewhere the next time git is used, so it is kept read-only",
		Use: "ask the person to change git dirs, hooks and config themselves"}
}
