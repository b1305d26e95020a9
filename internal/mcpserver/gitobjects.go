package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hardgit"
	"github.com/sentinelhq/sentinel/internal/procgroup"
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
//
// A pack (or its index) a command writes is proven with git verify-pack,
// which hashes every object in it; what git trusts for objects without
// checking and rebuilds when missing (commit-graph, multi-pack-index, a
// pack's .rev or .bitmap, info/alternates) is moved out when a command
// writes it: a planted commit-graph gives a commit another tree, a
// planted multi-pack-index another object's content.

// snapObjects remembers the object store of each rw path's own .git.
func (g *gitGuard) snapObjects() map[string]*gitdir.Objects {
	g.mu.Lock()
	defer g.mu.Unlock()
	snap := map[string]*gitdir.Objects{}
	for root, own := range g.own {
		if own != "" {
			snap[root] = gitdir.SnapObjects(filepath.Join(own, "objects"))
		}
	}
	return snap
}

// verifyPack proves the pack of the index idx of the git dir own.
var verifyPack = func(ctx context.Context, own, idx string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	// Hardened (no config of the repository's runs, no inherited GIT_*
	// environment); the store's alternates were dealt with before.
	// The whole process group ends with ctx: verify-pack runs index-pack
	// as its child, which would otherwise hold Run past the bound.
	_, err := hardgit.Git{Dir: own, Env: []string{"GIT_DIR=" + own, "GIT_NO_REPLACE_OBJECTS=1"}, Wrap: procgroup.EndGroupOnCancel}.Run(ctx, "verify-pack", "--", idx)
	return err
}

// checkObjects proves what changed in the object stores since snap and
// moves out what is not proven; it says what it found.
func (g *gitGuard) checkObjects(ctx context.Context, snap map[string]*gitdir.Objects) []string {
	var said []string
	out := func(root, p, what string) {
		id, err := gitdir.IDOf(p)
		if errors.Is(err, fs.ErrNotExist) {
			return // gone since
		}
		if err != nil {
			said = append(said, fmt.Sprintf("%s, and it could not be checked (%v): do not run git in %s until you have looked", what, err, root))
			return
		}
		to, err := g.quarantine(root, p, id)
		if err != nil {
			said = append(said, fmt.Sprintf("%s, and it could not be moved out (%v): do not run git in %s until you have looked", what, err, root))
			return
		}
		said = append(said, fmt.Sprintf("%s: moved to %s", what, to))
	}
	for root, o := range snap {
		ch := o.Changed()
		if len(ch.Gone) > 0 {
			said = append(said, g.lostObjects(root, ch.Gone))
		}
		for _, b := range ch.Bad {
			what := "planted"
			if b.Was {
				what = "rewrote"
			}
			out(root, b.Path, fmt.Sprintf("this command %s the git object %s, which is not what its name says (%s); git would have used its content for that object (`git fsck` in %s names what is missing)", what, b.Name, b.Why, root))
		}
		for _, p := range ch.Other {
			out(root, p, fmt.Sprintf("this command wrote %s, which git trusts for objects without checking them (it rebuilds it when needed)", p))
		}
		for _, idx := range ch.Packs {
			gd := filepath.Dir(filepath.Dir(filepath.Dir(idx))) // own/objects/pack/x.idx
			if err := verifyPack(ctx, gd, idx); err != nil {
				pack := strings.TrimSuffix(idx, ".idx") + ".pack"
				for _, p := range []string{idx, pack} {
					// The person's pack, as it was, stays: only what the
					// command wrote is moved out.
					if _, lerr := os.Lstat(p); lerr == nil && !o.Unchanged(p) {
						out(root, p, fmt.Sprintf("this command wrote the git pack file %s, which does not verify (%s)", filepath.Base(p), oneLine(err)))
					}
				}
			}
		}
	}
	return said
}
