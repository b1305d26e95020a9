package gitincludes

import (
	"os"
	"path/filepath"

	"context"
	"errors"
	"github.com/sentinelhq/sentinel/internal/gitdir"
	"os/exec"
	"sync"
)

// Reads collects, for a caller that caches what Files, HooksDirs and
// Programs found (sentinel mcp's look before each command), every path
// they read or resolved (each include named, present or not, as written
// and as cleaned; each config file of a git dir they read; each hooks
// directory and program path before its links are resolved; the git
// program) and whether any git config read failed in a way its inputs do
// not decide (git could not start, the context ended): then the answer
// must not be kept. The config files git reads by itself (system,
// global, the repository found from the directory) are the caller's to
// stamp: ConfigScopeFiles names them.
type Reads struct {
	mu     sync.Mutex
	paths  []string
	unsure bool
}

type readsKey struct{}

// WithReads is ctx carrying a new Reads that the functions of this
// package given it add to.
func WithReads(ctx context.Context) (context.Context, *Reads) {
	r := &Reads{}
	return context.WithValue(ctx, readsKey{}, r), r
}

// Paths are the paths read so far.
func (r *Reads) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.paths...)
}

// Unsure says whether a read failed for a reason other than its inputs.
func (r *Reads) Unsure() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.unsure
}

// note adds paths to ctx's Reads, if it carries one.
func note(ctx context.Context, paths ...string) {
	if r, ok := ctx.Value(readsKey{}).(*Reads); ok {
		r.mu.Lock()
		r.paths = append(r.paths, paths...)
		r.mu.Unlock()
	}
}

// noteRun marks ctx's Reads unsure when git's run failed other than by
// exiting (git config exits 1 for no match and 128 for a bad file, both
// decided by the files read).
func noteRun(ctx context.Context, err error) {
	var exit *exec.ExitError
	if err == nil || errors.As(err, &exit) && ctx.Err() == nil {
		return
	}
	if r, ok := ctx.Value(readsKey{}).(*Reads); ok {
		r.mu.Lock()
		r.unsure = true
		r.mu.Unlock()
	}
}

// ConfigScopeFiles are the files git config run in dir reads by itself,
// present or not: the system and global config (where the environment
// and the git program bin put them), and for dir and each directory above
// it what git's discovery looks at (a .git there, or the directory itself
// as a bare git dir) with the config and branch files of each git dir
// found (gitdir.ConfigFiles), and those of $GIT_DIR.
func ConfigScopeFiles(dir, bin string) []string {
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	out := []string{"/etc/gitconfig"}
	if bin != "" {
		out = append(out, filepath.Join(filepath.Dir(filepath.Dir(bin)), "etc", "gitconfig"))
	}
	for _, v := range []string{os.Getenv("GIT_CONFIG_SYSTEM"), os.Getenv("GIT_CONFIG_GLOBAL")} {
		if v != "" {
			out = append(out, v)
		}
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	if xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	}
	gitDir := func(gd string) {
		out = append(out, gd, filepath.Join(gd, "objects"), filepath.Join(gd, "refs"), filepath.Join(gd, "gitdir"))
		out = append(out, gitdir.ConfigFiles(gd)...)
	}
	if g := os.Getenv("GIT_DIR"); g != "" {
		gitDir(g)
	}
	for a := filepath.Clean(dir); ; a = filepath.Dir(a) {
		dot := filepath.Join(a, ".git")
		gitDir(dot)
		if t, ok := gitdir.FileTarget(dot); ok {
			gitDir(t)
		}
		gitDir(a)
		if a == filepath.Dir(a) {
			break
		}
	}
	return out
}
