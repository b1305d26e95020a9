package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/gitstore"
	"github.com/sentinelhq/sentinel/internal/procgroup"
)

// In place, the project's objects/ is read-only to the coder and its git
// writes new objects to a scratch object dir beside the shadow git dir
// (GIT_OBJECT_DIRECTORY; the project's objects are its alternate). Nothing
// the coder does can rewrite an object the person has; what it adds enters
// the project only here, at the end of the run, and only once proven: a
// loose object whose content does not hash to its name, or a pack that git
// cannot verify against its index, stays out (quarantined and named). What
// is not an object or a pack (commit-graph, multi-pack-index, bitmaps,
// info/alternates) is never moved in: git rebuilds what it needs.

// migrateObjects moves the proven objects of the scratch dir into the
// project's store (gitstore.Move, which sentinel mcp's rw repositories
// share) and returns what it refused, each named with why. The scratch dir
// is removed when everything was dealt with.
func (g *gitGuard) migrateObjects(ctx context.Context) (refused []string, err error) {
	if g.Objects == "" {
		return nil, nil
	}
	if _, err := os.Stat(g.Objects); err != nil {
		return nil, err
	}
	// The store's own object format, asked of the common dir that holds
	// it (the work tree's git dir may be a linked worktree's).
	format, err := (gitCmd{dir: g.common, env: []string{"GIT_DIR=" + g.common}}).line(ctx, "rev-parse", "--show-object-format")
	if err != nil {
		return nil, fmt.Errorf("the object format of %s: %w; the coder's new objects stay in %s", g.common, err, g.Objects)
	}
	hexLen := 40
	if format == "sha256" {
		hexLen = 64
	}
	m := gitstore.Move{
		From: g.Objects,
		Into: []gitstore.Store{{Dir: filepath.Join(g.common, "objects"), HexLen: hexLen}},
		VerifyPack: func(ctx context.Context, _ gitstore.Store, idx string) error {
			// Run from the project's own git dir, as sentinel mcp does: in
			// the coder's scratch dir git could take a planted config for
			// a bare repository's.
			// Its whole process group ends with ctx (Move bounds its time):
			// verify-pack runs index-pack as its child.
			_, err := (gitCmd{dir: g.common, env: []string{"GIT_DIR=" + g.common, "GIT_NO_REPLACE_OBJECTS=1"}, wrap: procgroup.EndGroupOnCancel}).run(ctx, "verify-pack", "--", idx)
			return err
		},
		Refuse: func(path, why string) {
			if g.quarantine(path) {
				refused = append(refused, filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)+": "+why)
			}
		},
	}
	if err := m.Run(ctx); err != nil {
		return refused, fmt.Errorf("move the coder's objects into the project: %w", err)
	}
	return refused, os.RemoveAll(g.Objects)
}
