package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/gitstore"
	"github.com/sentinelhq/sentinel/internal/hardgit"
)

// The object store of every rw path's own .git is read-only to commands,
// as sentinel exec holds the project's: a command cannot delete, truncate,
// chmod or rewrite an object the person has (`rm -rf .git/objects/*`, `git
// gc --prune=now` after a reset, `find .git/objects -delete`). The git of
// a command writes its new objects to a scratch object dir outside every
// rw path (GIT_OBJECT_DIRECTORY), and reads the person's through
// GIT_ALTERNATE_OBJECT_DIRECTORIES: the rw repositories' stores, every
// other repository found under the rw paths and the r paths' own (git
// then finds no object of a repository that is not listed). After each
// command, each object in the scratch dir is proven against its name (a
// pack with git verify-pack) on a copy the command cannot reach, and only
// then enters the rw repositories' stores (internal/gitstore, which
// sentinel exec's end of run uses too): `git commit` and `git add` work,
// and their objects are the person's once the command ends. One that is
// not what its name says is moved into the quarantine and named. With
// several rw repositories, a proven object enters each (git cannot say
// which repository a command's object is for; an unreachable object is
// pruned by the person's git gc). What still gets through (the loud
// snapshot comparison of gitobjects.go and gitstore.go) stays as the
// fallback. A server that dies mid-command leaves its scratch dir; the next
// one moves it in (gitscratch_recover_unix.go).

// maxAlternates bounds how many object dirs a command's git reads (each is
// an entry of one environment variable).
const maxAlternates = 200

// scratchStores records the object store of root's own .git (own), and the
// object dirs of the other git dirs the walk found, for the scratch dir.
func (g *gitGuard) scratchStores(root, own string, dirs []string) {
	if own != "" {
		g.stores = append(g.stores, gitstore.Store{Dir: filepath.Join(own, "objects"), HexLen: hexLenOf(own)})
		g.addAlternate(filepath.Join(own, "objects"))
	}
	for _, d := range dirs {
		g.addAlternate(filepath.Join(gitdir.Common(d), "objects"))
	}
}

// addAlternate adds the object dir o to what commands' git reads, when it
// is a directory and can be an entry of the list.
func (g *gitGuard) addAlternate(o string) {
	if len(g.alts) >= maxAlternates || slices.Contains(g.alts, o) || strings.ContainsAny(o, ":\"\n") {
		return
	}
	if st, err := os.Stat(o); err == nil && st.IsDir() {
		g.alts = append(g.alts, o)
	}
}

// hexLenOf is the length of the object names of the git dir own.
func hexLenOf(own string) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := hardgit.Git{Dir: own, Env: []string{"GIT_DIR=" + own}}.Run(ctx, "rev-parse", "--show-object-format")
	if err == nil && strings.TrimSpace(out) == "sha256" {
		return 64
	}
	return 40
}

// openScratch makes the scratch object dir when an rw path holds a
// repository and is the environment that points commands' git at it, and
// the directory to make writable ("" and nil when there is none).
func (g *gitGuard) openScratch(readable []string) (string, []string, error) {
	if len(g.stores) == 0 {
		return "", nil, nil
	}
	for _, r := range readable {
		if own := ownGitDir(r); own != "" {
			g.addAlternate(filepath.Join(own, "objects"))
		}
	}
	for _, line := range recoverScratch(context.Background(), g.stores) {
		tellPerson(line)
	}
	base, err := os.MkdirTemp("", scratchPrefix)
	if err != nil {
		return "", nil, fmt.Errorf("scratch object dir for the commands' git: %w", err)
	}
	g.scratch = filepath.Join(base, "objects")
	if err := os.Mkdir(g.scratch, 0o700); err != nil {
		os.RemoveAll(base)
		return "", nil, fmt.Errorf("scratch object dir for the commands' git: %w", err)
	}
	if err := g.recordScratch(base); err != nil {
		os.RemoveAll(base)
		return "", nil, fmt.Errorf("scratch object dir for the commands' git: %w", err)
	}
	return g.scratch, []string{"GIT_OBJECT_DIRECTORY=" + g.scratch, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + strings.Join(g.alts, ":")}, nil
}

// moveIn moves the proven objects of the scratch dir into the rw
// repositories' stores and says what it refused. final is the last time
// (the server closes): a pack without its index is refused then, and the
// scratch dir removed when everything was dealt with.
func (g *gitGuard) moveIn(ctx context.Context, final bool) []string {
	if g.scratch == "" {
		return nil
	}
	g.moving.Lock()
	defer g.moving.Unlock()
	var said []string
	m := gitstore.Move{
		From:           g.scratch,
		Into:           g.stores,
		KeepUnfinished: !final,
		VerifyPack: func(ctx context.Context, into gitstore.Store, idx string) error {
			return verifyPack(ctx, filepath.Dir(into.Dir), idx)
		},
		Refuse: func(p, why string) {
			what := fmt.Sprintf("this command wrote the git object file %s, which is not what its name says (%s); it was kept out of your repository", filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), why)
			id, err := gitdir.IDOf(p)
			if err != nil {
				said = append(said, what+" (it is gone)")
				return
			}
			to, err := g.quarantine(g.scratch, p, id)
			if err != nil {
				said = append(said, fmt.Sprintf("%s, and could not be moved out of %s (%v)", what, g.scratch, err))
				return
			}
			said = append(said, what+": moved to "+to)
		},
	}
	if err := m.Run(ctx); err != nil {
		line := fmt.Sprintf("the new git objects of this command could not all be moved into your repository (%v); they are in %s — copy them into .git/objects before you run git gc", err, g.scratch)
		tellPerson(line)
		return append(said, line)
	}
	if final {
		os.RemoveAll(filepath.Dir(g.scratch))
		if g.lock != nil {
			g.lock.Close()
		}
	}
	return said
}
