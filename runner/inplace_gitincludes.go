package runner

import (
	"context"
	"os"
	"slices"

	"github.com/sentinelhq/sentinel/internal/gitincludes"
)

// A git config file may include others (include.path, and
// includeIf.<condition>.path when the condition holds). An included file is
// read as if it were the config itself: its core.fsmonitor, core.pager,
// core.hooksPath or filter driver runs on the person's next git command.
// When an included file lies in the place (`[include] path =
// ../team.gitconfig` in .git/config, or `[includeIf "gitdir:~/work/"] path
// = ~/work/.gitconfig` in ~/.gitconfig with exec started in ~/work), the
// coder could write it as if it wrote .git/config. So every file the
// person's config includes, in any scope, that lies in a writable root is
// held read-only as the config is, made empty first where missing (git
// skips a missing include, and the coder would create it).
//
// Likewise core.hooksPath: the project's own file is read in
// gitProtected, but the value may come from an included file or from the
// person's global config (`hooksPath = .githooks`, relative to each
// repository's work tree), and apply to the repositories under a folder
// too. Every directory it names in the place is held read-only, made
// first where missing.

// gitConfigIncludes are the files the git config that applies in root
// includes that lie inside one of roots, and the programs it has git run
// by itself named as a path there (core.fsmonitor = tools/fsmon.sh, a
// pager, a textconv, a filter, a credential helper, in any scope, of the
// repository at root and of each of gitDirs: gitincludes.Programs), made
// first where missing, and the links on the way to them.
func gitConfigIncludes(ctx context.Context, root string, gitDirs, roots []string, made *placeholders) ([]string, map[string]string, error) {
	files, links := gitincludes.Files(ctx, root, gitDirs, roots)
	programs, plinks := gitincludes.ProgramsAndLinks(ctx, root, gitDirs, roots)
	for _, p := range programs {
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	for k, v := range plinks {
		links[k] = v
	}
	missing := absent(files)
	err := gitincludes.MakeFiles(files)
	made.note(missing, files) // inplace_placeholders.go
	if err != nil {
		return nil, nil, err
	}
	return files, links, nil
}

// gitHooksDirs are the directories core.hooksPath names that lie inside
// one of roots, made first where missing (gitincludes.HooksDirs).
func gitHooksDirs(ctx context.Context, root string, gitDirs, roots []string, made *placeholders) ([]string, error) {
	dirs := gitincludes.HooksDirs(ctx, root, gitDirs, roots)
	missing := absent(dirs)
	err := gitincludes.MakeDirs(dirs)
	made.note(missing, dirs)
	if err != nil {
		return nil, err
	}
	return dirs, nil
}

// includeLinks are the links configLinks holds; nil before they are known.
func (g *gitGuard) includeLinks() map[string]string {
	if m := g.configLinks.Load(); m != nil {
		return *m
	}
	return nil
}

// configLinkChanged says whether path is one of the links on the way to an
// included config file (gitConfigIncludes) and no longer points where it
// did at the start: re-made, re-pointed or replaced.
func (g *gitGuard) configLinkChanged(path string) bool {
	was, ok := g.includeLinks()[path]
	if !ok {
		return false
	}
	now, err := os.Readlink(path)
	return err != nil || now != was
}

// sweepConfigLinks takes out every link to an included config file that
// the coder re-pointed (the watch's backstop).
func (g *gitGuard) sweepConfigLinks() []string {
	var out []string
	for p := range g.includeLinks() {
		if _, err := os.Lstat(p); err == nil && g.configLinkChanged(p) && g.quarantine(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
