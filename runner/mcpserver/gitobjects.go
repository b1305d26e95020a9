package mcpserver

import (
	"fmt"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// An rw path's own .git/objects stays writable to commands (git commit
// through exec writes there), and git takes a loose object's file for the
// object its name says without checking: a command that rewrites the file
// of a tracked blob has the person's next `git checkout` write the
// command's content (issue 31: after `git checkout -- Makefile`, `make`
// ran the coder's recipe). So the loose objects are remembered before
// each command (identity, change time) and every one that is new or
// changed after it is proven against its name (gitdir.CheckLoose); one
// that is not what its name says is moved into the quarantine and named
// in the answer.

// snapObjects remembers the loose objects of each rw path's own .git.
func (g *gitGuard) snapObjects() map[string]*gitdir.Loose {
	g.mu.Lock()
	defer g.mu.Unlock()
	snap := map[string]*gitdir.Loose{}
	for root, own := range g.own {
		if own != "" {
			snap[root] = gitdir.SnapLoose(filepath.Join(own, "objects"))
		}
	}
	return snap
}

// checkObjects proves the loose objects that changed since snap and
// quarantines each that is not the object its name names; it says what
// it found.
func (g *gitGuard) checkObjects(snap map[string]*gitdir.Loose) []string {
	var said []string
	for root, l := range snap {
		for _, b := range l.Changed() {
			what := "planted"
			if b.Was {
				what = "rewrote"
			}
			id, err := gitdir.IDOf(b.Path)
			if err != nil {
				continue // gone since
			}
			to, err := quarantine(root, b.Path, id)
			if err != nil {
				said = append(said, fmt.Sprintf("this command %s the git object %s, which is not what its name says (%s), and it could not be moved out (%v): do not run git in %s until you have looked", what, b.Name, b.Why, err, root))
				continue
			}
			said = append(said, fmt.Sprintf("this command %s the git object %s, which is not what its name says (%s): moved to %s, or git would have used its content for that object; `git fsck` in %s names what is missing", what, b.Name, b.Why, to, root))
		}
	}
	return said
}
