// Package gitincludes finds the files and directories a git config sends
// git to that lie inside writable places: the config files it includes
// (include.path, includeIf.<condition>.path) and the hooks directories
// core.hooksPath names, in every scope, through includes.
//
// An included file is read as if it were the config itself: its
// core.fsmonitor, core.pager, core.hooksPath or filter driver runs on the
// person's next git command. A hooks directory's programs run on the next
// commit. When either lies where a sandboxed command (sentinel exec,
// sentinel mcp's exec) or a file tool may write, the writer could run code
// on the host as if it wrote .git/config; so the callers hold each one
// read-only (made first where missing: git skips a missing include, and the
// writer would create it) and refuse it in their file tools.
//
// Config is read with the system's git (hostbin.Find: never one a project
// put first on PATH, such as node_modules/.bin/git) and only read: no hook,
// fsmonitor or driver runs for it.
package gitincludes

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

// includeKeys matches the keys that name an included config file.
const includeKeys = `^include(if\..*)?\.path$`

// maxLines bounds how many entries one git config listing is read for (a
// hostile nested repository's config may list many).
const maxLines = 1000

// Files are the files the git config that applies in root (every scope,
// included files followed) and the config of each of gitDirs (nested
// repositories, which a writer cannot write but whose includes it could)
// include that lie strictly inside one of roots, symbolic links resolved.
// links are the symbolic links inside roots on the way to one (the
// included file itself, or a directory of its path), each with its target:
// a read-only mount holds what a link points to, not the link, so a caller
// must notice one re-pointed. Nothing is made: see MakeFiles.
func Files(ctx context.Context, root string, gitDirs, roots []string) (files []string, links map[string]string) {
	links = map[string]string{}
	for _, l := range memoIncludes(ctx, root, gitDirs) {
		for a := l; a != filepath.Dir(a); a = filepath.Dir(a) {
			if st, err := os.Lstat(a); err == nil && st.Mode()&os.ModeSymlink != 0 && Inside(a, roots) {
				links[a], _ = os.Readlink(a)
			}
		}
		if t := Resolved(l); Inside(t, roots) && !slices.Contains(files, t) {
			files = append(files, t)
		}
	}
	return files, links
}

// allIncludes are the files the git config that applies in root and the
// config of each of gitDirs include, as written (absolute, links not
// resolved), and the files those include in turn whatever their condition:
// git follows an includeIf only where its condition holds (gitdir:,
// onbranch:, hasconfig:), and it may hold for the person later though not
// here (exec started in ~/work, which no gitdir: matches, while every
// repository under it does; a branch the person checks out next), so
// what such a file includes or sets is looked at too.
func allIncludes(ctx context.Context, root string, gitDirs []string) []string {
	queue := listIncludes(ctx, root)
	for _, d := range gitDirs {
		for _, cfg := range configsOf(ctx, d, "include") {
			queue = append(queue, listIncludes(ctx, root, "--file", cfg)...)
		}
	}
	var out []string
	for len(queue) > 0 && len(out) < maxLines {
		f := queue[0]
		queue = queue[1:]
		if slices.Contains(out, f) {
			continue
		}
		out = append(out, f)
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			queue = append(queue, listIncludes(ctx, root, "--file", f)...)
		}
	}
	return out
}

// conditionalFiles are the included files (allIncludes) that exist: the
// keys they set are read from each (--file), as git would on a command
// where their condition holds.
func conditionalFiles(ctx context.Context, root string, gitDirs []string) []string {
	var out []string
	for _, f := range memoIncludes(ctx, root, gitDirs) {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	return out
}

// worktrees are root and the work tree of each of gitDirs that is a .git
// (a bare repository or a module's git dir has none here).
func worktrees(root string, gitDirs []string) []string {
	out := []string{root}
	for _, d := range gitDirs {
		if filepath.Base(d) == ".git" && !slices.Contains(out, filepath.Dir(d)) {
			out = append(out, filepath.Dir(d))
		}
	}
	return out
}

// MakeFiles makes each of files that is missing, empty, so that it can be
// held read-only.
func MakeFiles(files []string) error {
	for _, t := range files {
		if _, err := os.Lstat(t); !os.IsNotExist(err) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(t), 0o755); err != nil {
			return fmt.Errorf("git config include %s: %w (it must exist to be held read-only)", t, err)
		}
		fh, err := os.OpenFile(t, os.O_CREATE|os.O_RDONLY, 0o644)
		if err != nil {
			return fmt.Errorf("git config include %s: %w (it must exist to be held read-only)", t, err)
		}
		fh.Close()
	}
	return nil
}

// HooksDirs are the directories core.hooksPath names, in any scope and
// through includes, for the repository at root (when it is one) and each
// of gitDirs, that lie strictly inside one of roots. A relative value is
// taken from the repository's work tree, as git runs hooks there. Nothing
// is made: see MakeDirs.
func HooksDirs(ctx context.Context, root string, gitDirs, roots []string) []string {
	var out []string
	for _, d := range AllHooksDirs(ctx, root, gitDirs) {
		if Inside(d, roots) {
			out = append(out, d)
		}
	}
	return out
}

// AllHooksDirs are the directories core.hooksPath names, as HooksDirs,
// wherever they lie (a global hooksPath in the person's home whose hooks
// run scripts of the place): each resolved, once.
func AllHooksDirs(ctx context.Context, root string, gitDirs []string) []string {
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
		own := slices.Clone(global)
		for _, cfg := range configsOf(ctx, d, "hookspath", "include") {
			own = append(own, configValues(ctx, root, "core.hooksPath", "--file", cfg)...)
		}
		for _, v := range own {
			vals = append(vals, value{v, wt})
		}
	}
	// An included file may apply to any of the repositories (its
	// condition decides), and a relative value to each one's work tree.
	for _, f := range conditionalFiles(ctx, root, gitDirs) {
		for _, v := range configValues(ctx, root, "core.hooksPath", "--file", f) {
			for _, wt := range worktrees(root, gitDirs) {
				vals = append(vals, value{v, wt})
			}
		}
	}
	var out []string
	for _, hv := range vals {
		d := hv.v
		if !filepath.IsAbs(d) {
			d = filepath.Join(hv.worktree, d)
		}
		note(ctx, d)
		d = Resolved(filepath.Clean(d))
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// configsOf are the config files of the git dir d (its common dir's
// config, and the config.worktree of each, which git reads with
// extensions.worktreeConfig) whose text holds one of words (a key git
// config spells in any case): a file holding none sets no such key and
// starts no git.
func configsOf(ctx context.Context, d string, words ...string) []string {
	var out []string
	c := gitdir.Common(d)
	note(ctx, filepath.Join(d, "commondir"))
	for _, cfg := range []string{filepath.Join(c, "config"), filepath.Join(c, "config.worktree"), filepath.Join(d, "config.worktree")} {
		note(ctx, cfg)
		b, err := os.ReadFile(cfg)
		if err != nil || slices.Contains(out, cfg) {
			continue
		}
		low := bytes.ToLower(b)
		if slices.ContainsFunc(words, func(w string) bool { return bytes.Contains(low, []byte(w)) }) {
			out = append(out, cfg)
		}
	}
	return out
}

// MakeDirs makes each of dirs that is missing, so that it can be held
// read-only.
func MakeDirs(dirs []string) error {
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("git hooks directory %s: %w (it must exist to be held read-only)", d, err)
		}
	}
	return nil
}

// listIncludes runs `git config --get-regexp` for the include keys in dir
// (with scope, e.g. --file F; all scopes without) and returns each named
// file as an absolute path, as written (symbolic links not resolved). A
// git that fails (no match, no git) lists nothing.
func listIncludes(ctx context.Context, dir string, scope ...string) []string {
	args := append([]string{"config", "--includes", "--show-origin", "-z"}, scope...)
	args = append(args, "--get-regexp", includeKeys)
	b, err := hostGit(ctx, dir, args)
	noteRun(ctx, err)
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	// -z: "file:ORIGIN\0KEY\nVALUE\0" per entry.
	f := strings.Split(string(b), "\x00")
	var out []string
	for i := 0; i+1 < len(f) && len(out) < maxLines; i += 2 {
		origin, kv := strings.TrimPrefix(f[i], "file:"), f[i+1]
		_, v, ok := strings.Cut(kv, "\n")
		// "command line:": GIT_CONFIG_COUNT/GIT_CONFIG_KEY_n or
		// GIT_CONFIG_PARAMETERS in the environment, which git follows
		// like any include (a relative one it refuses).
		cmdline := f[i] == "command line:"
		if !ok || v == "" || !strings.HasPrefix(f[i], "file:") && !cmdline {
			continue
		}
		if cmdline {
			if strings.HasPrefix(v, "~/") && home != "" {
				v = home + "/" + v[2:]
			}
			if !filepath.IsAbs(v) {
				continue
			}
			note(ctx, v)
			out = append(out, filepath.Clean(v))
			continue
		}
		if !filepath.IsAbs(origin) {
			origin = filepath.Join(dir, origin)
		}
		switch {
		case strings.HasPrefix(v, "~/") && home != "":
			v = home + "/" + v[2:]
		case !filepath.IsAbs(v):
			v = filepath.Dir(origin) + "/" + v
		}
		note(ctx, origin, v) // as written: git resolves a .. after a link through it
		out = append(out, filepath.Clean(v))
	}
	return out
}

// configValues are every value of key git config gives in dir (every
// scope without scope args), includes followed and ~ expanded.
func configValues(ctx context.Context, dir, key string, scope ...string) []string {
	args := append([]string{"config", "--includes", "--path", "-z"}, scope...)
	b, err := hostGit(ctx, dir, append(args, "--get-all", key))
	noteRun(ctx, err)
	if err != nil {
		return nil
	}
	var out []string
	for _, v := range strings.Split(string(b), "\x00") {
		if v != "" && len(out) < maxLines {
			out = append(out, v)
		}
	}
	return out
}

// Inside says whether p lies strictly inside one of roots (symbolic links
// in roots resolved).
func Inside(p string, roots []string) bool {
	for _, r := range roots {
		if r == "" {
			continue
		}
		rr := Resolved(r)
		if p != rr && strings.HasPrefix(p, strings.TrimSuffix(rr, string(filepath.Separator))+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// Resolved is p with its symbolic links resolved, or p cleaned where they
// cannot be (a missing file).
func Resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// hostGit runs the system's git with the person's own environment, so that
// their global and system config are read; only `git config` reads are
// run through it.
func hostGit(ctx context.Context, dir string, args []string) ([]byte, error) {
	bin, err := hostbin.Find("git")
	if err != nil {
		return nil, err
	}
	note(ctx, bin)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	return cmd.Output()
}
