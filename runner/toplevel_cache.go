package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Every `sentinel sandbox run` in a repository asks git for the work tree's
// top level (whose config applies), and a git start cost it a few
// milliseconds. git's answer is kept per directory, signed in the user's
// state directory, while everything git's discovery read is unchanged: the
// git binary and PATH; the user it runs as; and each directory from dir up
// to /, by what it is (device, inode, mode, owner: a mount over it or a new
// owner changes that) and by the git files in it, present or not — .git,
// HEAD, config, config.worktree and commondir — as well as, for a .git
// directory or the git directory a .git file names, those files, objects,
// refs and the common directory's config. Directories are stamped without
// their times, so files coming and going in the work tree keep the answer;
// a .git or HEAD appearing on the way does not. The stamps are taken before
// git is asked, so a change made while it answers is not taken for what it
// read. A stale answer could only apply another project's config, and
// every project config still passes its own trust check.

var topLevelCache = userstate.DirCache{File: "toplevel-cache.json", Purpose: "runner top level cache v1", Entries: 32}

// cachedTopLevel is git's answer kept for dir under key, if any.
func cachedTopLevel(dir, key string) (string, bool) {
	var top string
	k, ok := topLevelCache.Get(dir, &top)
	if !ok || top == "" || k != key {
		return "", false
	}
	return top, true
}

// keepTopLevel keeps git's answer top for dir under key, the stamps taken
// before git was asked.
func keepTopLevel(dir, key, top string) {
	if top != "" {
		topLevelCache.Put(dir, key, top)
	}
}

// topLevelKey names the question "which work tree is dir in?" by the
// stamps of everything git reads to answer it; keyed is false when one
// cannot be taken (no git, a path that does not resolve).
func topLevelKey(dir string) (key string, keyed bool) {
	gitBin, err := hostbin.Find("git")
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", false
	}
	h := sha256.New()
	fmt.Fprintf(h, "dir %q real %q euid %d PATH %q git %q\n", abs, real, os.Geteuid(), os.Getenv("PATH"), gitBin)
	userstate.Stamp(h, gitBin)
	if r, err := filepath.EvalSymlinks(gitBin); err == nil {
		userstate.Stamp(h, r)
	}
	for d := real; ; d = filepath.Dir(d) {
		stampGitDir(h, d) // d itself may be a git directory (bare, or inside .git)
		dotGit := filepath.Join(d, ".git")
		if st, err := os.Stat(dotGit); err == nil && st.IsDir() {
			stampGitDir(h, dotGit)
		} else {
			userstate.Stamp(h, dotGit) // absent, or a file whose content counts
			if target, ok := gitdir.FileTarget(dotGit); ok {
				stampGitDir(h, target)
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// stampGitDir stamps a directory that may be a git directory: what it is,
// the files git reads to configure it (gitdir.ConfigFiles), its objects and
// refs, and its common directory.
func stampGitDir(h io.Writer, gd string) {
	userstate.StampWhatItIs(h, gd)
	for _, f := range gitdir.ConfigFiles(gd) {
		userstate.Stamp(h, f)
	}
	for _, d := range []string{"objects", "refs"} {
		userstate.StampWhatItIs(h, filepath.Join(gd, d))
	}
	if c := gitdir.Common(gd); c != gd {
		userstate.StampWhatItIs(h, c)
	}
}
