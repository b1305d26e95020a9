package mcpserver

import (
	"context"
	"maps"
	"slices"

	"github.com/sentinelhq/sentinel/internal/gitindex"
)

// A command may write the index of an rw path's own git dir, and the
// index holds records git trusts instead of looking (an untracked-files
// cache, an fsmonitor record, a cache-tree: internal/gitindex): a forged
// one hides a new or changed file from the person's next git status or
// puts the command's tree in the person's next commit. After each
// command each the command changed is removed and named, as sentinel
// exec does at the end of an in-place run.

// snapIndexes is the index of every rw path's own git dir now (nil for
// one that has none or cannot be read).
func (g *gitGuard) snapIndexes() map[string][]byte {
	g.mu.Lock()
	own := maps.Clone(g.own)
	g.mu.Unlock()
	snap := map[string][]byte{}
	for root, gd := range own {
		if gd == "" {
			continue
		}
		b, _ := gitindex.Read(gd)
		if w, err := gitindex.Whole(context.Background(), gd, b); err == nil {
			b = w // a split index's shared entries with it (split.go)
		}
		snap[root] = b
	}
	return snap
}

// checkIndexes removes from each index of snap the caches the command
// changed, and names each.
func (g *gitGuard) checkIndexes(snap map[string][]byte) []string {
	g.mu.Lock()
	own := maps.Clone(g.own)
	g.mu.Unlock()
	var said []string
	for _, root := range slices.Sorted(maps.Keys(snap)) {
		gd := own[root]
		if gd == "" {
			continue
		}
		// A split index is written whole first: what is read below is the
		// index file's own entries (gitindex/split.go).
		if split, err := gitindex.Unsplit(context.Background(), gd); err != nil {
			said = append(said, "could not look at the git index of "+root+": "+err.Error()+"; a file the command marked skip-worktree or assume-unchanged may be hidden from git status: run `git update-index --no-split-index` and `git ls-files -v | grep -v '^H'` there")
			continue
		} else if split {
			said = append(said, root+": the git index was split (its entries kept in .git/sharedindex.*); it was written whole again so that the marks and records a command left in it are seen")
		}
		cs, err := gitindex.DropChanged(gd, snap[root])
		if err != nil {
			said = append(said, "could not look at the git index of "+root+" for caches the command wrote: "+err.Error())
			continue
		}
		for _, c := range cs {
			if c.Told() {
				said = append(said, root+": "+c.String())
			}
		}
		said = append(said, checkMarks(root, gd, snap[root])...) // gitindex_marks.go
		said = append(said, checkStat(root, gd, snap[root])...)  // gitindex_stat.go
	}
	return said
}
