package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// BuildCache is one tool's writable cache and the variable that points the
// tool at it.
type BuildCache struct {
	Env string `json:"env"`
	Dir string `json:"dir"`
}

// buildCaches are the build caches a coder may write, one directory each
// under the project's cache root.
var buildCaches = []struct{ env, sub string }{
	{"XDG_CACHE_HOME", "xdg"},
	{"GOCACHE", "go-build"},
	{"npm_config_cache", "npm"},
	{"YARN_CACHE_FOLDER", "yarn"},
	// pnpm's store: pnpm ≤ 10 keeps it in $PNPM_HOME/store (it reads the
	// store-dir setting only as npm_config_store_dir, which npm itself then
	// warns about in every command's output), pnpm 11 reads only
	// pnpm_config_store_dir.
	{"PNPM_HOME", "pnpm"},
	{"pnpm_config_store_dir", filepath.Join("pnpm", "store")},
	{"PIP_CACHE_DIR", "pip"},
	{"UV_CACHE_DIR", "uv"},
	{"CCACHE_DIR", "ccache"},
	{"SCCACHE_DIR", "sccache"},
	{"DENO_DIR", "deno"},
	{"BUN_INSTALL_CACHE_DIR", "bun"},
}

// ProjectCacheDir is where a project's build caches live: the person's
// cache directory, keyed by the project's real path. Never inside the
// project, where what the coder writes could be planted for the person, and
// never shared with another project or with verification.
func ProjectCacheDir(project string) (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("build caches: no cache directory (%v); set XDG_CACHE_HOME", err)
	}
	return ProjectCacheDirIn(base, project)
}

// ProjectCacheDirIn is ProjectCacheDir under the cache directory base.
func ProjectCacheDirIn(base, project string) (string, error) {
	abs, err := filepath.Abs(project)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(resolve(abs)))
	return filepath.Join(base, "sentinel", "projects", hex.EncodeToString(sum[:8])), nil
}

// BuildCacheEnv lists the caches under a project's cache root (made or not).
func BuildCacheEnv(root string) []BuildCache {
	var out []BuildCache
	for _, c := range buildCaches {
		out = append(out, BuildCache{Env: c.env, Dir: filepath.Join(root, c.sub)})
	}
	return out
}

// ProjectCaches makes the project's build caches and lists them.
func ProjectCaches(project string) ([]BuildCache, error) {
	root, err := ProjectCacheDir(project)
	if err != nil {
		return nil, err
	}
	out := BuildCacheEnv(root)
	for _, c := range out {
		if err := os.MkdirAll(c.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("build cache %s: %w; make it writable or set XDG_CACHE_HOME", c.Dir, err)
		}
	}
	return out, nil
}

// WithCaches makes project's build caches writable and points each tool's
// variable at its own. Apply it after an agent's needs: an agent that keeps
// state under ~/.cache (opencode's installed providers) keeps it there, so
// XDG_CACHE_HOME is then left alone.
func (p Profile) WithCaches(project string) (Profile, error) {
	caches, err := ProjectCaches(project)
	if err != nil {
		return p, err
	}
	root, _ := ProjectCacheDir(project)
	p.Writable = append(p.Writable, root)
	agentCache := false
	if home, err := os.UserHomeDir(); err == nil {
		for _, w := range p.Writable {
			agentCache = agentCache || within(w, filepath.Join(home, ".cache"))
		}
	}
	for _, c := range caches {
		if c.Env == "XDG_CACHE_HOME" && agentCache {
			continue
		}
		p.Env = append(p.Env, c.Env+"="+c.Dir)
	}
	return p, nil
}
