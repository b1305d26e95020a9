package mcpserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
)

// A command may write an rw path's own .git/objects and refs (git commit
// through exec needs it), so it may also delete them: `rm -rf
// .git/objects/pack/* .git/objects/??` leaves `fatal: bad object HEAD`,
// and the checkpoint does not cover .git. Sentinel cannot put deleted
// objects back, so it says so loudly and runs no further command until the
// person has looked (a restart of sentinel mcp clears it): the person's
// history is not made worse by a client that goes on. The refs are
// compared before and after each command: a ref the person had that a
// command deleted or moved is named with the git command that puts it
// back (its objects are still there unless the store lost them too).

// snapRefs remembers the refs of each rw path's own .git.
func (g *gitGuard) snapRefs() map[string]map[string]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	snap := map[string]map[string]string{}
	for root, own := range g.own {
		if own != "" {
			snap[root] = gitdir.Refs(own, gitdir.Common(own))
		}
	}
	return snap
}

// checkRefs names the refs of snap a command deleted or moved.
func (g *gitGuard) checkRefs(snap map[string]map[string]string) []string {
	var said []string
	for root, before := range snap {
		own := g.ownOf(root)
		after := gitdir.Refs(own, gitdir.Common(own))
		var names []string
		for n := range before {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			b, a := before[n], after[n]
			switch {
			case a == b:
			case a == "":
				said = append(said, fmt.Sprintf("this command DELETED your ref %s in %s (it was %s); to put it back: %s", n, root, b, putBack(n, b)))
			default:
				said = append(said, fmt.Sprintf("this command moved your ref %s in %s from %s to %s; to put it back: %s", n, root, b, a, putBack(n, b)))
			}
		}
	}
	return said
}

func putBack(ref, was string) string {
	if t, ok := strings.CutPrefix(was, "ref: "); ok {
		return "git symbolic-ref " + ref + " " + t
	}
	if ref == "HEAD" {
		return "git checkout --detach " + was
	}
	return "git update-ref " + ref + " " + was
}

// lostObjects is the answer's line for object files a command deleted
// under root, and stops further commands.
func (g *gitGuard) lostObjects(root string, gone []string) string {
	shown := gone
	if len(shown) > 5 {
		shown = shown[:5]
	}
	line := fmt.Sprintf("DANGER: this command DELETED %d file(s) of the git object store of %s (%s): the repository may have lost history, which Sentinel cannot put back; `git fsck` there says what is missing. Sentinel runs no further command through this server until it is restarted, so that nothing makes it worse", len(gone), root, strings.Join(shown, ", "))
	g.mu.Lock()
	g.stopped = line
	g.mu.Unlock()
	return line
}

// halted is why commands no longer run ("" while they do).
func (g *gitGuard) halted() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stopped
}
