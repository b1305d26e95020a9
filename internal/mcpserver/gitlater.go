package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// What in an rw path's own .git git acts on later without the person
// seeing it, though every object in it is genuine (gitdir.SnapLater): a
// replace ref, info/grafts, shallow, and a left-over rebase, cherry-pick,
// revert, merge or bisect (the person's `git rebase --continue` runs its
// exec lines on the host). refs/replace and info/ are read-only to
// commands (ownGitDirs); a replace ref written into packed-refs, a shallow
// file and a left-over sequencer state a command made or changed are
// taken out after it: a file or directory moved into the quarantine, a
// packed replace ref recorded in the quarantine and deleted with git; each
// is named in the answer.

// snapLater remembers the run-later state of each rw path's own .git.
func (g *gitGuard) snapLater() map[string]*gitdir.Later {
	g.mu.Lock()
	defer g.mu.Unlock()
	snap := map[string]*gitdir.Later{}
	for root, own := range g.own {
		if own != "" {
			snap[root] = gitdir.SnapLater(own, gitdir.Common(own))
		}
	}
	return snap
}

// checkLater takes out what is new or changed in snap and says what.
func (g *gitGuard) checkLater(ctx context.Context, snap map[string]*gitdir.Later) []string {
	var said []string
	for root, l := range snap {
		own := g.ownOf(root)
		for _, it := range l.Changed() {
			if it.Path != "" {
				id, err := gitdir.IDOf(it.Path)
				if errors.Is(err, fs.ErrNotExist) {
					continue // gone since
				}
				if err != nil {
					said = append(said, fmt.Sprintf("this command left %s, and it could not be checked (%v): do not run git in %s until you have looked", it.What, err, root))
					continue
				}
				to, err := g.quarantine(root, it.Path, id)
				if err != nil {
					said = append(said, fmt.Sprintf("this command left %s, and it could not be moved out (%v): do not run git in %s until you have looked", it.What, err, root))
					continue
				}
				said = append(said, fmt.Sprintf("this command left %s — moved out to %s", it.What, to))
				continue
			}
			kept := keepRef(root, it)
			_, err := hardgit.Git{Dir: root, Env: []string{"GIT_DIR=" + own}}.Run(ctx, "update-ref", "--no-deref", "-d", it.Ref, it.ID)
			if err != nil {
				said = append(said, fmt.Sprintf("this command made %s, and it could not be deleted (%v): run `git replace -d %s` in %s before anything else", it.What, err, filepath.Base(it.Ref), root))
				continue
			}
			said = append(said, fmt.Sprintf("this command made %s — deleted (recorded in %s)", it.What, kept))
		}
	}
	return said
}

// keepRef records a packed ref about to be deleted in the quarantine; it
// is the record's path ("" when it could not be written).
func keepRef(root string, it gitdir.LaterItem) string {
	dir, err := quarantineDir()
	if err != nil {
		return ""
	}
	p := filepath.Join(dir, backupName(filepath.Join(root, ".git", filepath.FromSlash(it.Ref))))
	if err := os.WriteFile(p, []byte(it.ID+" "+it.Ref+"\n"), 0o600); err != nil {
		return ""
	}
	return p
}
