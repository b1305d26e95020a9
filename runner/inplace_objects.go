package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/gitdir"
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

var packName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^pack-[0-9a-f]{40}([0-9a-f]{24})?\.pack$`) })

// migrateObjects moves the proven objects of the scratch dir into the
// project's store and returns what it refused, each named with why. The
// scratch dir is removed when everything was dealt with.
func (g *gitGuard) migrateObjects(ctx context.Context) (refused []string, err error) {
	if g.Objects == "" {
		return nil, nil
	}
	format, _ := (gitCmd{dir: g.p.Root}).line(ctx, "rev-parse", "--show-object-format")
	hexLen := 40
	if format == "sha256" {
		hexLen = 64
	}
	dst := filepath.Join(g.common, "objects")
	refuse := func(path, why string) {
		if g.quarantine(path) {
			refused = append(refused, filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path)+": "+why)
		}
	}
	dirs, err := os.ReadDir(g.Objects)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(g.Objects, d.Name()))
		for _, f := range files {
			path := filepath.Join(g.Objects, d.Name(), f.Name())
			name := d.Name() + f.Name()
			if !f.Type().IsRegular() || !gitdir.IsLooseName(d.Name(), f.Name()) || len(name) != hexLen {
				continue // git's temp files and the like: not objects
			}
			if why := gitdir.CheckLoose(path, name); why != "" {
				refuse(path, why)
				continue
			}
			to := filepath.Join(dst, d.Name(), f.Name())
			if _, err := os.Lstat(to); err == nil {
				continue // the person's store has it: theirs stays
			}
			if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
				return refused, err
			}
			if err := copyInto(path, to); err != nil {
				return refused, fmt.Errorf("move object %s into the project: %w", name, err)
			}
		}
	}
	packs, _ := os.ReadDir(filepath.Join(g.Objects, "pack"))
	for _, pk := range packs {
		if !pk.Type().IsRegular() || !packName().MatchString(pk.Name()) {
			continue
		}
		pack := filepath.Join(g.Objects, "pack", pk.Name())
		idx := strings.TrimSuffix(pack, ".pack") + ".idx"
		if st, err := os.Lstat(idx); err != nil || !st.Mode().IsRegular() {
			refuse(pack, "a pack without its index")
			continue
		}
		if _, err := (gitCmd{dir: g.Objects}).run(ctx, "verify-pack", "--", idx); err != nil {
			refuse(pack, "its objects do not match its index")
			refuse(idx, "the index of a pack that does not verify")
			continue
		}
		for _, f := range []string{pack, idx} { // the pack before its index
			to := filepath.Join(dst, "pack", filepath.Base(f))
			if _, err := os.Lstat(to); err == nil {
				continue
			}
			if err := copyInto(f, to); err != nil {
				return refused, fmt.Errorf("move pack %s into the project: %w", filepath.Base(f), err)
			}
		}
	}
	return refused, os.RemoveAll(g.Objects)
}
