package mcpserver

import (
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
