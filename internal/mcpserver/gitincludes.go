package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitincludes"
)

// A git config may send git to files and directories that lie in an rw
// path: a file it includes (`[include] path = ../team.gitconfig`, an
// includeIf target in ~/.gitconfig) is read as the config itself, and the
// directory core.hooksPath names holds the hooks git runs, and a program
// it names as a path (core.fsmonitor = tools/fsmon, a pager, a diff
// driver: gitincludes.Programs) is run by git itself. Any, written
// by a command or a file tool, runs code on the host at the person's next
// git command, as .git/config would. So, as sentinel exec does, every one
// that lies in an rw path is held read-only to commands in every exec
// mode (made first where missing: git skips a missing include, and a
// command would create it) and refused by the file tools (guard.go). A
// symbolic link in an rw path on the way to an included file is not held
// by the read-only mount (that holds what it points to): one a command
// re-points is moved into the quarantine and named in the answer.

// configTargets are the include files and hooks directories the git config
// of each of roots (and of the git dirs found under it at the start) names
// inside roots, made where missing.
func (g *gitGuard) configTargets(ctx context.Context, roots []string) ([]string, error) {
	out, links, err := targetsOf(ctx, roots, g.dirsOf, g.held)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.configLinks = links
	g.mu.Unlock()
	return out, nil
}

// targetsOf is configTargets for the git dirs dirsOf gives under each
// root, with the links on the way to an included file (not recorded);
// made remembers what it makes.
func targetsOf(ctx context.Context, roots []string, dirsOf func(root string) []string, made *heldMade) ([]string, map[string]string, error) {
	var out []string
	links := map[string]string{}
	for _, root := range roots {
		dirs := dirsOf(root)
		files, l := gitincludes.Files(ctx, root, dirs, roots)
		if err := made.make(files, gitincludes.MakeFiles); err != nil {
			return nil, nil, err
		}
		programs := gitincludes.Programs(ctx, root, dirs, roots)
		if err := made.make(programs, gitincludes.MakeFiles); err != nil {
			return nil, nil, err
		}
		files = append(files, programs...)
		hooks := gitincludes.HooksDirs(ctx, root, dirs, roots)
		if err := made.make(hooks, gitincludes.MakeDirs); err != nil {
			return nil, nil, err
		}
		for k, v := range l {
			links[k] = v
		}
		for _, p := range append(files, hooks...) {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out, links, nil
}

// dirsOf are the git dirs found under root at the start.
func (g *gitGuard) dirsOf(root string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dirs[root]
}

// sweepConfigLinks moves every link on the way to an included config file
// that a command re-pointed, replaced or removed-and-remade into the
// quarantine, and says so.
func (g *gitGuard) sweepConfigLinks() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var said []string
	for p, was := range g.configLinks {
		now, err := os.Readlink(p)
		if err == nil && now == was {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			continue // gone: git skips a missing include
		}
		dir, err := quarantineDir()
		if err == nil {
			to := filepath.Join(dir, backupName(p))
			if err = os.Rename(p, to); err == nil {
				said = append(said, fmt.Sprintf("quarantined %s (moved to %s): it leads git to a config file it includes and this command changed where it points", p, to))
				continue
			}
		}
		line := fmt.Sprintf("could not quarantine %s: %v — it leads git to a config file it includes and this command changed it; do not run git there until you have looked", p, err)
		said = append(said, line)
		tellPerson(line)
	}
	slices.Sort(said)
	return said
}

// configReadBound bounds the git config reads at config load (a hang only).
const configReadBound = 30 * time.Second
