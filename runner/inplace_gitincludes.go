package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// A git config file may include others (include.path, and
// includeIf.<condition>.path when the condition holds). An included file is
// read as if it were the config itself: its core.fsmonitor, core.pager,
// core.hooksPath or filter driver runs on the person's next git command.
// When an included file lies in the place (`[include] path =
// ../team.gitconfig` in .git/config, or `[includeIf "gitdir:~/work/"] path
// = ~/work/.gitconfig` in ~/.gitconfig with exec started in ~/work), the
// coder could write it as if it wrote .git/config. So every file the
// person's config includes, in any scope, that lies in a writable root is
// held read-only as the config is, made empty first where missing (git
// skips a missing include, and the coder would create it).
//
// Likewise core.hooksPath: the project's own file is read in
// gitProtected, but the value may come from an included file or from the
// person's global config (`hooksPath = .githooks`, relative to each
// repository's work tree), and apply to the repositories under a folder
// too. Every directory it names in the place is held read-only, made
// first where missing.

// includeKeys matches the keys that name an included config file.
const includeKeys = `^include(if\..*)?\.path$`

// maxIncludeLines bounds how many include entries one git config listing
// is read for (a hostile nested repository's config may list many).
const maxIncludeLines = 1000

// gitConfigIncludes are the files the git config that applies in root (every
// scope, included files followed) and the config of each of gitDirs (nested
// repositories, which the coder cannot write but whose includes it could)
// include that lie inside one of roots, made first where missing. links are
// the symbolic links in the place on the way to one (the included file
// itself, or a directory of its path), each with its target: a read-only
// mount holds what a link points to, not the link, so the guard takes out
// one the coder re-points (gitGuard.configLinks).
func gitConfigIncludes(ctx context.Context, root string, gitDirs, roots []string) (files []string, links map[string]string, err error) {
	links = map[string]string{}
	literal := listIncludes(ctx, root)
	for _, d := range gitDirs {
		cfg := filepath.Join(gitdir.Common(d), "config")
		b, err := os.ReadFile(cfg)
		if err != nil || !bytes.Contains(bytes.ToLower(b), []byte("include")) {
			continue // no include in it: no git started for it
		}
		literal = append(literal, listIncludes(ctx, root, "--file", cfg)...)
	}
	var targets []string
	for _, l := range literal {
		for a := l; a != filepath.Dir(a); a = filepath.Dir(a) {
			if st, err := os.Lstat(a); err == nil && st.Mode()&os.ModeSymlink != 0 && insideOne(a, roots) {
				links[a], _ = os.Readlink(a)
			}
		}
		targets = append(targets, resolvedPath(l))
	}
	var out []string
	for _, t := range targets {
		if !insideOne(t, roots) || slices.Contains(out, t) {
			continue
		}
		if _, err := os.Lstat(t); os.IsNotExist(err) {
			if err := os.MkdirAll(filepath.Dir(t), 0o755); err != nil {
				return nil, nil, fmt.Errorf("git config include %s: %w (it must exist to be held read-only)", t, err)
			}
			fh, err := os.OpenFile(t, os.O_CREATE|os.O_RDONLY, 0o644)
			if err != nil {
				return nil, nil, fmt.Errorf("git config include %s: %w (it must exist to be held read-only)", t, err)
			}
			fh.Close()
		}
		out = append(out, t)
	}
	return out, links, nil
}

// configLinkChanged says whether path is one of the links on the way to an
// included config file (gitConfigIncludes) and no longer points where it
// did at the start: re-made, re-pointed or replaced.
func (g *gitGuard) configLinkChanged(path string) bool {
	was, ok := g.configLinks[path]
	if !ok {
		return false
	}
	now, err := os.Readlink(path)
	return err != nil || now != was
}

// sweepConfigLinks takes out every link to an included config file that
// the coder re-pointed (the watch's backstop).
func (g *gitGuard) sweepConfigLinks() []string {
	var out []string
	for p := range g.configLinks {
		if _, err := os.Lstat(p); err == nil && g.configLinkChanged(p) && g.quarantine(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// listIncludes runs `git config --get-regexp` for the include keys in dir
// (with scope, e.g. --file F; all scopes without) and returns each named
// file as an absolute path, as written (symbolic links not resolved). It only reads config: no hook,
// fsmonitor or driver runs for it. A git that fails (no match, no git)
// lists nothing.
func listIncludes(ctx context.Context, dir string, scope ...string) []string {
	args := append([]string{"config", "--includes", "--show-origin", "-z"}, scope...)
	args = append(args, "--get-regexp", includeKeys)
	b, err := hostGit(ctx, dir, args)
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	// -z: "file:ORIGIN\0KEY\nVALUE\0" per entry.
	f := strings.Split(string(b), "\x00")
	var out []string
	for i := 0; i+1 < len(f) && len(out) < maxIncludeLines; i += 2 {
		origin, kv := strings.TrimPrefix(f[i], "file:"), f[i+1]
		_, v, ok := strings.Cut(kv, "\n")
		if !ok || v == "" || !strings.HasPrefix(f[i], "file:") {
			continue
		}
		if !filepath.IsAbs(origin) {
			origin = filepath.Join(dir, origin)
		}
		switch {
		case strings.HasPrefix(v, "~/") && home != "":
			v = filepath.Join(home, v[2:])
		case !filepath.IsAbs(v):
			v = filepath.Join(filepath.Dir(origin), v)
		}
		out = append(out, filepath.Clean(v))
	}
	return out
}

// gitHooksDirs are the directories core.hooksPath names, in any scope and
// through includes, for the repository at root (when it is one) and each
// of gitDirs, that lie inside one of roots, made first where missing. A
// relative value is taken from the repository's work tree, as git runs
// hooks there.
func gitHooksDirs(ctx context.Context, root string, gitDirs, roots []string) ([]string, error) {
	type value struct{ v, worktree string }
	var vals []value
	for _, v := range configValues(ctx, root, "core.hooksPath") {
		vals = append(vals, value{v, root}) // every scope: the project's, or a folder's global one
	}
	global := configValues(ctx, root, "core.hooksPath", "--global")
	for _, d := range gitDirs {
		if filepath.Base(d) != ".git" {
			continue // a bare repository or a module's git dir: no work tree here to be relative to
		}
		wt := filepath.Dir(d)
		for _, v := range append(slices.Clone(global), configValues(ctx, root, "core.hooksPath", "--file", filepath.Join(gitdir.Common(d), "config"))...) {
			vals = append(vals, value{v, wt})
		}
	}
	var out []string
	for _, hv := range vals {
		d := hv.v
		if !filepath.IsAbs(d) {
			d = filepath.Join(hv.worktree, d)
		}
		d = resolvedPath(filepath.Clean(d))
		if !insideOne(d, roots) || slices.Contains(out, d) {
			continue
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("git hooks directory %s: %w (it must exist to be held read-only)", d, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// configValues are every value of key git config gives in dir (every
// scope without scope args), includes followed and ~ expanded. It only
// reads config.
func configValues(ctx context.Context, dir, key string, scope ...string) []string {
	args := append([]string{"config", "--includes", "--path", "-z"}, scope...)
	b, err := hostGit(ctx, dir, append(args, "--get-all", key))
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range strings.Split(string(b), "\x00") {
		if v != "" && len(out) < maxIncludeLines {
			out = append(out, v)
		}
	}
	return out
}

// insideOne says whether p lies strictly inside one of roots.
func insideOne(p string, roots []string) bool {
	for _, r := range roots {
		if r != "" && within(p, resolvedPath(r)) && p != resolvedPath(r) {
			return true
		}
	}
	return false
}

// hostGit runs the system's git (hostbin.Find: never one a project put
// first on PATH, such as node_modules/.bin/git) with the person's own
// environment, so that their global and system config are read; only
// `git config` reads are run through it.
func hostGit(ctx context.Context, dir string, args []string) ([]byte, error) {
	bin, err := hostbin.Find("git")
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	return cmd.Output()
}
