package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// Git obeys the config, attributes and hooks of whatever repository it
// discovers from its directory, and a directory counts as one (a bare
// repository) when it holds HEAD and refs: files the coder writes as plain
// workspace files. `git init --bare evil`, a textconv or diff.external in
// evil/config and `git -C evil log -p` (or `cd evil && git show`) ran the
// coder's program on the host with the sandbox off, though every write of
// a .git directory asks. So with the sandbox off, git run in a directory of
// the workspace that looks like a git directory, or that does not exist
// yet (a repository made in the same line), asks. Inside the sandbox it
// runs confined, and Sentinel's own git calls neutralise such config.

// gitMadeRepo judges the directories git runs in (after cd and -C).
func gitMadeRepo(x *cmdCtx, sub string) {
	if x.c.sandbox || x.c.ws == "" || x.cw == nil || x.cw.unknown || sub == "init" || sub == "clone" {
		return
	}
	for _, d := range x.cw.dirs {
		why := madeRepoAt(x.c.ws, d)
		if why == notYetMade && lineMakesNoDirs(x.c.line, 0) {
			continue // gitmissingdir_off.go: nothing on the line can make it, so git does not run there
		}
		if why != "" {
			rel, err := filepath.Rel(x.c.ws, d)
			if err != nil {
				rel = d
			}
			x.add(Ask, RuleGitOther, "git in "+quoteShort(filepath.ToSlash(rel))+": "+why+
				", whose config and hooks git would obey, and the sandbox is off")
			return
		}
	}
}

// madeRepoAt walks from dir up to the workspace root as git's discovery
// does and names what would make git use a repository the coder made.
// A .git found on the way ends the walk: every write under a .git asks.
func madeRepoAt(ws, dir string) string {
	if dir != ws && !strings.HasPrefix(dir, ws+string(filepath.Separator)) {
		return "" // outside the workspace: judged as a read outside
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return ""
		}
		if d == ws {
			if looksGitDir(d) {
				return "the workspace itself looks like a git directory"
			}
			return ""
		}
		if _, err := os.Lstat(d); err != nil {
			return notYetMade
		}
		if looksGitDir(d) {
			return "it looks like a git directory (HEAD and refs)"
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

const notYetMade = "the directory does not exist yet (a repository made in this line)"

// looksGitDir: git's own test, loosely: a HEAD file and a refs directory
// (or a commondir file, as a linked worktree's git dir has).
func looksGitDir(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	if fi, err := os.Stat(filepath.Join(d, "refs")); err == nil && fi.IsDir() {
		return true
	}
	_, err := os.Stat(filepath.Join(d, "commondir"))
	return err == nil
}
