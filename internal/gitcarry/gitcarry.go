// Package gitcarry says which paths a ref's commits carry: what a branch,
// tag or stash entry a sandboxed command made or moved would write into
// the person's files on their next checkout, reset, merge or stash pop,
// and send out on their next push, though the work tree never showed it.
// git runs hardened (package hardgit) and only reads objects.
package gitcarry

import (
	"context"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// Files are the paths whose content tip's history adds over base's: the
// difference from their merge base (everything of tip when base is "" or
// the histories are unrelated), so a tag on one of the person's older
// commits or a branch reset back carries nothing. With stash, tip is a
// stash entry: what `git stash pop` writes, the diff from the commit it
// was made on plus its untracked files (the third parent). gitDir is the
// repository's git dir, dir where git runs.
func Files(ctx context.Context, dir, gitDir, base, tip string, stash bool) ([]string, error) {
	// base and tip come from ref files the coder could write: anything but
	// an object name (an option such as --output=FILE) is refused here.
	for _, id := range []string{tip, base} {
		if !gitdir.ObjectID(id) && (id == tip || id != "") {
			return nil, fmt.Errorf("a ref names %q, which is no object name: look with git show-ref before you check it out, merge, pop or push it", id)
		}
	}
	git := hardgit.Git{Dir: dir, Env: []string{"GIT_DIR=" + gitDir}}
	switch {
	case stash:
		base = tip + "^1"
	case base != "":
		mb, err := git.Run(ctx, "merge-base", base, tip)
		if err != nil {
			mb = "" // unrelated histories; an unreadable tip fails below
		}
		base = strings.TrimSpace(mb)
	}
	args := []string{"diff-tree", "-r", "-z", "--name-only", "--no-renames", base + "^{tree}", tip + "^{tree}"}
	if base == "" {
		args = []string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", tip + "^{tree}"}
	}
	out, err := git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("could not read what its commits change (%v): look with git show before you check it out, merge, pop or push it", err)
	}
	if stash {
		if u, uerr := git.Run(ctx, "ls-tree", "-r", "-z", "--name-only", "--full-tree", tip+"^3^{tree}"); uerr == nil {
			out += "\x00" + u
		}
	}
	var files []string
	for _, n := range strings.Split(out, "\x00") {
		if n != "" {
			files = append(files, n)
		}
	}
	return files, nil
}

// Commit is the commit a ref value names among refs: the value itself, or
// for a symbolic ref ("ref: refs/heads/main") what its target names ("" when
// that is unknown).
func Commit(refs map[string]string, v string) string {
	for hops := 0; strings.HasPrefix(v, "ref: ") && hops < 5; hops++ {
		v = refs[strings.TrimPrefix(v, "ref: ")]
	}
	if strings.HasPrefix(v, "ref: ") {
		return ""
	}
	return v
}
