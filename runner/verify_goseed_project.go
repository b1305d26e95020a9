package runner

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/sandbox"
)

// A project's own Go build cache (sandbox.ProjectCacheDir: the one its
// coder in `sentinel run` and its program in `sentinel exec` write) used to
// start empty, so every new project's first go build in the sandbox
// compiled the standard library from nothing: a minute of CPU, several at
// load 20. When it is first made it now starts as a checked copy of
// Sentinel's signed seed, exactly as a verification's private cache does:
// the seed itself is never given to a coder, and what a coder later writes
// in its project's cache stays there.
//
// The copy is made in a directory of its own under the seed root (which no
// coder can write) and renamed into place whole: a coder of the same
// project can write the project's cache root, so a half-made copy there
// could be raced (a planted symlink for a directory the copy then makes).
// Only a Go project's cache is seeded (a go.mod or go.work at its top), and
// only from a seed already built: making a project's cache never
// builds one nor waits for one (a run's seed is started by WarmGoSeed).

// SeedProjectGoCache gives project's Go build cache, when there is none
// yet, a checked copy of this toolchain's largest signed seed. Anything
// that fails leaves the cache to be made empty, as before.
func SeedProjectGoCache(ctx context.Context, project string) {
	root, err := sandbox.ProjectCacheDir(project)
	if err != nil {
		return
	}
	dst := ""
	for _, c := range sandbox.BuildCacheEnv(root) {
		if c.Env == "GOCACHE" {
			dst = c.Dir
		}
	}
	if _, err := os.Lstat(dst); dst == "" || !errors.Is(err, fs.ErrNotExist) {
		return // made before: it is the project's, whatever it holds
	}
	if !isGoProject(project) {
		return // tens of megabytes no build of it is likely to read
	}
	seeds, ok := seedRoot()
	if !ok {
		return
	}
	seed, ok := builtSeed(ctx, seeds)
	if !ok {
		return
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return
	}
	tmp, err := os.MkdirTemp(seeds, seedBuildPattern()) // swept like a seed build's if we die
	if err != nil {
		return
	}
	defer os.RemoveAll(tmp)
	cache := filepath.Join(tmp, "cache")
	if err := copySeedFn(seed, cache); err != nil {
		return
	}
	_ = os.Rename(cache, dst) // made meanwhile: that one stays
}

// builtSeed is the largest of this toolchain's signed seeds under root that
// is already built; nothing is built.
func builtSeed(ctx context.Context, root string) (goSeedDir, bool) {
	for i := len(seedTiers) - 1; i >= 0; i-- {
		dir, version, err := seedDirOf(ctx, root, seedTiers[i])
		if err != nil {
			return goSeedDir{}, false
		}
		if s, err := readSeed(dir, version); err == nil {
			return s, true
		}
	}
	return goSeedDir{}, false
}

// isGoProject says whether project is a Go module or workspace at its top.
func isGoProject(project string) bool {
	for _, f := range []string{"go.mod", "go.work"} {
		if st, err := os.Stat(filepath.Join(project, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}
