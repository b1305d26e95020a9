package mcpserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/gitrest"
)

// The rest of each rw path's own git dir (internal/gitrest, as sentinel
// exec's end-of-run report does): what the other checks around a command
// (objects, refs, the run-later state, the entries held read-only) do not
// cover is stamped before the command and compared after it, and every
// path that is new, changed or gone — a MERGE_MSG, lfs/, rr-cache/, a link
// in logs/, a name git has not invented yet — is named in the answer and
// the audit record. Content is hashed up to restBudget bytes a command;
// past it a file is stamped by its identity and change time, which no
// program sets back.

const restBudget = 4 << 20

// restOf is one rw path's git dirs and their rest before a command.
type restOf struct {
	dirs gitrest.Dirs
	rest *gitrest.Rest
}

// snapRest stamps the rest of every rw path's own git dir now.
func (g *gitGuard) snapRest() map[string]restOf {
	g.mu.Lock()
	own := maps.Clone(g.own)
	g.mu.Unlock()
	snap := map[string]restOf{}
	for root, gd := range own {
		if gd == "" {
			continue
		}
		common := gitdir.Common(gd)
		d := gitrest.Dirs{GitDir: gd, Common: common, Reftable: gitdir.IsReftable(common)}
		snap[root] = restOf{d, gitrest.Snap(d, restBudget)}
	}
	return snap
}

// checkRest names what a command changed in the rest of snap.
func (g *gitGuard) checkRest(snap map[string]restOf) []string {
	var said []string
	for _, root := range slices.Sorted(maps.Keys(snap)) {
		s := snap[root]
		lines, n := gitrest.Changes(s.dirs, s.rest, gitrest.Snap(s.dirs, restBudget), 20)
		if n == 0 && len(lines) == 0 {
			continue
		}
		said = append(said, fmt.Sprintf("this command changed %d thing(s) in the git dir of %s that no commit, checkout or fetch writes; look at each before you run git there: %s",
			n, root, strings.Join(lines, "; ")))
	}
	return said
}
