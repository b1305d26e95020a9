package runner

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sentinelhq/sentinel/internal/gitdir"
	"github.com/sentinelhq/sentinel/internal/gitincludes"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// What the sandbox shows of the person's project when the coder works in
// it in place (sentinel exec). In `run` the real project is not mounted at
// all; here it is the writable workspace, so what `run` keeps out by not
// copying must be kept out by the profile:
//
//   - the project's secret files (policy.SecretName: .env, *.pem, id_rsa,
//     credentials…, ignored or not) are hidden: an empty read-only file or
//     directory is mounted over each, which the coder can neither read,
//     replace, rename nor delete;
//   - .sentinel/ is read-only (its policy, templates and config must be the
//     person's), and the workspaces and recovery of other runs in it, which
//     may hold an agent's copy of a login, are hidden, as are the records
//     of the project's other runs (their requests, decisions and what they
//     read), those started after this one's sandbox included: the whole
//     of .sentinel/runs is hidden, this run's own record with it (nothing
//     inside reads it; its broker listens in a private temp dir);
//   - every other git dir and pointer under the place (nested
//     repositories, submodules, linked worktrees, .git files, found by
//     name and by content, inplace_gitdirs.go) is read-only whole, so a
//     folder that is no repository holds its repositories read-only;
//   - every file a git config that applies includes (include.path,
//     includeIf.*.path, any scope, inplace_gitincludes.go) that lies in
//     the place is read-only as the config is, and so is every program a
//     git config has git run by itself named as a path there
//     (core.fsmonitor = tools/fsmon.sh, a pager, a textconv or filter, a
//     credential helper; of every repository under the place);
//   - of the project's own git dir, the coder may write what committing on
//     a branch needs (refs, index, logs, HEAD) but never what runs code on
//     the person's next git command or changes what git reads: hooks/,
//     config, config.worktree, commondir and gitdir, the directory
//     core.hooksPath names, modules/, worktrees/ (each other worktree's
//     entry, in a linked worktree) and objects/ stay read-only, made first
//     where missing so they cannot be created. The coder's git writes new
//     objects to a scratch object dir (GIT_OBJECT_DIRECTORY, with the
//     project's objects as an alternate); at the end each new object is
//     checked against its name and only then moved in (inplace_objects.go),
//     so no existing object can be rewritten. A git dir or pointer that
//     appears during the run is quarantined at once (gitGuard).
//
// For `git push` over ssh without the private key inside, ~/.ssh/known_hosts
// (and ~/.ssh/config) are shown read-only; the ssh agent's socket
// ($SSH_AUTH_SOCK) is reachable only when the person's config says so
// ([sandbox] ssh_agent = true): with it the coder could sign as the person.

// inPlaceGitPlanted are top-level files of a git dir that change where git
// finds its config (and so its hooks) on the person's next command.
var inPlaceGitPlanted = []string{"commondir", "config.worktree"}

// maxAlternates bounds how many nested repositories' object dirs the
// coder's git is given to read (each is an entry of one environment
// variable); past it, reading a nested repository's history inside fails.
const maxAlternates = 200

// inPlaceProfile adds the in-place rules to the coder's profile.
func (r *containment) inPlaceProfile(ctx context.Context, prof sandbox.Profile) (sandbox.Profile, error) {
	p := r.opts.Project
	home, _ := os.UserHomeDir()
	secrets, err := projectSecrets(p.Root)
	if err != nil {
		return prof, fmt.Errorf("find the project's secret files: %w", err)
	}
	prof.Hidden = append(prof.Hidden, secrets...)
	prof.Writable = append(prof.Writable, r.opts.Sandbox.Writable...)
	prof.ReadOnly = append(prof.ReadOnly, p.StateDir())
	prof.Hidden = append(prof.Hidden, filepath.Join(p.StateDir(), "work"), filepath.Join(p.StateDir(), "recovery"))
	prof.Hidden = append(prof.Hidden, r.otherRunRecords()...)
	g := r.ws.guard
	if g == nil {
		return prof, fmt.Errorf("in place: the git repositories under %s were not looked for; this is a bug", p.Root)
	}
	if p.GitDir != "" {
		prot, err := gitProtected(ctx, p)
		if err != nil {
			return prof, err
		}
		prof.Protected = append(prof.Protected, prot...)
		if !within(p.GitDir, p.Root) {
			// A linked worktree: its git dir and the common one are outside.
			prof.Writable = append(prof.Writable, p.GitDir, p.commonDir())
		}
		prof.Writable = append(prof.Writable, g.Objects)
		alts := []string{p.ObjectsDir()}
		for _, d := range g.scan.Dirs {
			if o := filepath.Join(gitdir.Common(d), "objects"); len(alts) < maxAlternates && !slices.Contains(alts, o) {
				if st, err := os.Stat(o); err == nil && st.IsDir() {
					alts = append(alts, o)
				}
			}
		}
		prof.Env = append(prof.Env, "GIT_OBJECT_DIRECTORY="+g.Objects, "GIT_ALTERNATE_OBJECT_DIRECTORIES="+strings.Join(alts, ":"))
	}
	prof.Protected = append(prof.Protected, gitDirsProtected(g.scan, append([]string{p.Root}, prof.Writable...))...)
	// The includes listed once for the files and the hooks dirs: nothing
	// runs in the place between the two (gitincludes.WithMemo).
	ictx := gitincludes.WithMemo(ctx)
	incs, links, err := gitConfigIncludes(ictx, p.Root, g.scan.Dirs, append([]string{p.Root}, prof.Writable...), &g.made)
	if err != nil {
		return prof, err
	}
	g.configLinks.Store(&links)
	prof.Protected = append(prof.Protected, incs...)
	hooks, err := gitHooksDirs(ictx, p.Root, g.scan.Dirs, append([]string{p.Root}, prof.Writable...), &g.made)
	if err != nil {
		return prof, err
	}
	prof.Protected = append(prof.Protected, hooks...)
	if home != "" {
		for _, f := range []string{"known_hosts", "config"} {
			if st, err := os.Stat(filepath.Join(home, ".ssh", f)); err == nil && st.Mode().IsRegular() {
				prof.Readable = append(prof.Readable, filepath.Join(home, ".ssh", f))
			}
		}
	}
	if sock := os.Getenv("SSH_AUTH_SOCK"); r.opts.Sandbox.SSHAgent && filepath.IsAbs(sock) {
		if st, err := os.Stat(sock); err == nil && st.Mode()&fs.ModeSocket != 0 {
			prof.Readable = append(prof.Readable, sock)
			prof.Env = append(prof.Env, "SSH_AUTH_SOCK="+sock)
		}
	}
	return prof, nil
}

// otherRunRecords are what of .sentinel/runs is hidden from the coder, so
// that it reads no other run's record (in `run` the project is not mounted
// and no record is in sight): the whole directory, so that a run started
// after this sandbox was made is hidden too (a list of the entries there
// at the start missed it). Only when the broker's socket had to be put in
// this run's record (a temp dir too deep for a socket's path) is that
// record left in sight, and then the other entries there now are hidden.
func (r *containment) otherRunRecords() []string {
	runs := r.opts.Project.RunsDir()
	if !within(r.socketPath(), filepath.Clean(r.dir)) {
		return []string{runs}
	}
	entries, _ := os.ReadDir(runs)
	var out []string
	for _, e := range entries {
		if d := filepath.Join(runs, e.Name()); d != filepath.Clean(r.dir) {
			out = append(out, d)
		}
	}
	return out
}

// projectSecrets are the project's files and directories with a secret's
// name (policy.SecretName), outside .git and .sentinel.
func projectSecrets(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // unreadable to Sentinel: not shown inside either
		}
		if path == root {
			return nil
		}
		name := d.Name()
		if d.IsDir() && (strings.EqualFold(name, ".git") || (filepath.Dir(path) == root && strings.EqualFold(name, stateDirName))) {
			return filepath.SkipDir
		}
		if policy.SecretName(name) {
			out = append(out, path)
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	return out, err
}

// gitProtected are the paths of the project's git dir that stay read-only,
// each made first when missing (a path that does not exist cannot be held
// read-only, and the coder would create it).
func gitProtected(ctx context.Context, p *Project) ([]string, error) {
	common := p.commonDir()
	// refs/replace and info/ (grafts) give objects other content or
	// commits other parents on every later git command (inplace_later.go).
	dirs := []string{filepath.Join(common, "hooks"), filepath.Join(common, "modules"), filepath.Join(common, "objects"), filepath.Join(common, "refs", "replace"), filepath.Join(common, "info")}
	files := []string{filepath.Join(common, "config")}
	if p.GitDir != common {
		files = append(files, filepath.Join(p.GitDir, "config.worktree"))
	}
	var out []string
	// Linked worktrees: from the main checkout all of worktrees/ (made, so
	// none can be added); from a linked one, every other worktree's entry
	// and its own pointers (commondir, gitdir), which exist.
	wts := filepath.Join(common, "worktrees")
	if p.GitDir == common {
		dirs = append(dirs, wts)
	} else {
		entries, _ := os.ReadDir(wts)
		for _, e := range entries {
			if d := filepath.Join(wts, e.Name()); resolvedPath(d) != resolvedPath(p.GitDir) {
				out = append(out, d)
			}
		}
		for _, n := range []string{"commondir", "gitdir"} {
			if _, err := os.Lstat(filepath.Join(p.GitDir, n)); err == nil {
				out = append(out, filepath.Join(p.GitDir, n))
			}
		}
	}
	for _, n := range inPlaceGitPlanted {
		if f := filepath.Join(p.GitDir, n); p.GitDir == common && !slices.Contains(files, f) {
			if _, err := os.Lstat(f); err == nil {
				out = append(out, f) // the person's own: kept as it is
			}
		}
	}
	// The repository's own file: hardened git overrides core.hooksPath
	// on its command line.
	cfg := filepath.Join(common, "config")
	if hp, err := (gitCmd{dir: p.Root}).line(ctx, "config", "--file", cfg, "--path", "core.hooksPath"); err == nil && hp != "" {
		if !filepath.IsAbs(hp) {
			hp = filepath.Join(p.Root, hp)
		}
		dirs = append(dirs, filepath.Clean(hp))
	}
	if on, err := (gitCmd{dir: p.Root}).line(ctx, "config", "--file", cfg, "--bool", "extensions.worktreeConfig"); err == nil && on == "true" {
		files = append(files, filepath.Join(common, "config.worktree"))
	}
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("git directory %s: %w (it must exist to be held read-only)", d, err)
		}
		out = append(out, d)
	}
	for _, f := range files {
		fh, err := os.OpenFile(f, os.O_CREATE|os.O_RDONLY, 0o644)
		if err != nil {
			return nil, fmt.Errorf("git config %s: %w (it must exist to be held read-only)", f, err)
		}
		fh.Close()
		out = append(out, f)
	}
	return out, nil
}

// gitPlantedAtStart lists which of inPlaceGitPlanted the git dir had before
// the coder started.
func gitPlantedAtStart(p *Project) map[string]bool {
	had := map[string]bool{}
	if p.GitDir == "" {
		return had
	}
	for _, n := range inPlaceGitPlanted {
		if _, err := os.Lstat(filepath.Join(p.GitDir, n)); err == nil {
			had[n] = true
		}
	}
	return had
}

// within reports whether path is root or lies beneath it.
func within(path, root string) bool {
	return path == root || strings.HasPrefix(path, strings.TrimSuffix(root, "/")+"/")
}

// policyDir is where an agent's managed policy is written: the run
// directory, which the sandbox shows read-only. In place the run directory
// is inside the writable project (the sandbox refuses to place a file from
// there), so it is a per-run directory in the user's state dir instead,
// which the coder never sees.
func (r *containment) policyDir() string {
	if !r.opts.InPlace {
		return r.dir
	}
	return r.ws.Shadow + ".policy" // made in openInPlace, removed with the shadow (removeShadow)
}
