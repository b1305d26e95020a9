package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitcarry"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hardgit"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/policy"
)

// A command may commit (exec's git needs the rw path's own .git): a
// commit of a trojaned Makefile or a new .envrc with the work tree put
// back, a CI workflow on a new branch, a .envrc kept in `git stash -u`
// reach the person's files on their next reset, checkout, merge or stash
// pop, and their remote on push, while no file of the work tree changed
// (checkRefs names only the person's refs, and not what they carry). So
// each ref a command made or moved is read for what its commits add
// (gitcarry.Files), and the files that run code later among them are
// named in the answer and the audit journal. Called after the command's
// objects are moved in.

// maxCarryNamed bounds how many files one ref's line names.
const maxCarryNamed = 8

// snapStash remembers, for each root of snap whose refs hold a stash,
// every entry of its stash list (not only the top): after `git stash
// drop` refs/stash names the person's older entry, which the command did
// not make and must not be named as if it had.
func (g *gitGuard) snapStash(ctx context.Context, snap map[string]map[string]string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for root, refs := range snap {
		if refs["refs/stash"] == "" {
			continue
		}
		own := g.ownOf(root)
		git := hardgit.Git{Dir: root, Env: []string{"GIT_DIR=" + own}}
		list, err := git.Run(ctx, "log", "-g", "--format=%H", "refs/stash", "--")
		ids := map[string]bool{refs["refs/stash"]: true}
		if err == nil {
			for _, id := range strings.Fields(list) {
				ids[id] = true
			}
		}
		out[root] = ids
	}
	return out
}

// refsCarry names, for each ref of snap's roots that a command made or
// moved, the run-later files its commits add. stash holds each root's
// stash list before the command (snapStash): an entry already on it is
// the person's, brought to the top by a drop, and is not named.
func (g *gitGuard) refsCarry(ctx context.Context, snap map[string]map[string]string, stash map[string]map[string]bool) []string {
	var said []string
	roots := make([]string, 0, len(snap))
	for root := range snap {
		roots = append(roots, root)
	}
	slices.Sort(roots)
	for _, root := range roots {
		before := snap[root]
		own := g.ownOf(root)
		after := gitdir.Refs(own, gitdir.Common(own))
		var names []string
		for n := range after {
			names = append(names, n)
		}
		slices.Sort(names)
		start := gitcarry.Commit(before, before["HEAD"])
		for _, n := range names {
			a, b := after[n], before[n]
			if n == "HEAD" && strings.HasPrefix(a, "ref: ") {
				continue // its branch is named itself
			}
			tip, base := gitcarry.Commit(after, a), gitcarry.Commit(before, b)
			if tip == "" || tip == base || strings.HasPrefix(n, "refs/replace/") {
				continue
			}
			if n == "refs/stash" && stash[root][tip] {
				continue // the person's own entry, on top after a drop
			}
			if base == "" {
				base = start
			}
			files, err := gitcarry.Files(ctx, root, own, base, tip, n == "refs/stash")
			if err != nil {
				said = append(said, textsafe.Line(fmt.Sprintf("this command moved %s in %s: %v", n, root, err)))
				continue
			}
			var named []string
			for _, f := range files {
				if e, ok := policy.RunsLaterHere(f); ok {
					if len(named) == maxCarryNamed {
						named = append(named, "and more")
						break
					}
					named = append(named, f+" ("+e.Reason+")")
				}
			}
			if len(named) > 0 {
				said = append(said, textsafe.Line(fmt.Sprintf("after this command %s in %s holds commits that change files that run code later: %s; a checkout, reset, merge or stash pop brings them into your files and a push sends them out: look with git show %s", n, root, strings.Join(named, "; "), n)))
			}
		}
	}
	return said
}
