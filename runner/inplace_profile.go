package runner

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
//     may hold an agent's copy of a login, are hidden;
//   - of .git, the coder may write what committing on a branch needs
//     (objects, refs, index, logs, HEAD) but never what runs code on the
//     person's next git command: hooks/, config, the directory
//     core.hooksPath names, and submodules' git dirs (modules/) stay
//     read-only, made first where missing so they cannot be created; a
//     commondir or config.worktree planted at the top of .git is removed
//     as soon as it appears (watchGitPlanted, inplace_gitwatch.go) and
//     swept again when the run ends (removeGitPlanted).
//
// For `git push` over ssh without the private key inside, ~/.ssh/known_hosts
// (and ~/.ssh/config) are shown read-only and the ssh agent's socket
// ($SSH_AUTH_SOCK) is reachable; the rest of ~/.ssh stays hidden.

// inPlaceGitPlanted are top-level files of a git dir that change where git
// finds its config (and so its hooks) on the person's next command.
var inPlaceGitPlanted = []string{"commondir", "config.worktree"}

// inPlaceProfile adds the in-place rules to the coder's profile.
func (r *Run) inPlaceProfile(ctx context.Context, prof sandbox.Profile) (sandbox.Profile, error) {
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
	}
	if home != "" {
		for _, f := range []string{"known_hosts", "config"} {
			if st, err := os.Stat(filepath.Join(home, ".ssh", f)); err == nil && st.Mode().IsRegular() {
				prof.Readable = append(prof.Readable, filepath.Join(home, ".ssh", f))
			}
		}
	}
	if sock := os.Getenv("SSH_AUTH_SOCK"); filepath.IsAbs(sock) {
		if st, err := os.Stat(sock); err == nil && st.Mode()&fs.ModeSocket != 0 {
			prof.Readable = append(prof.Readable, sock)
			prof.Env = append(prof.Env, "SSH_AUTH_SOCK="+sock)
		}
	}
	return prof, nil
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
	dirs := []string{filepath.Join(common, "hooks")}
	files := []string{filepath.Join(common, "config")}
	if p.GitDir != common {
		files = append(files, filepath.Join(p.GitDir, "config.worktree"))
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
	var out []string
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("git hooks directory %s: %w (it must exist to be held read-only)", d, err)
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
	if st, err := os.Stat(filepath.Join(common, "modules")); err == nil && st.IsDir() {
		out = append(out, filepath.Join(common, "modules"))
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

// removeGitPlanted removes what the coder planted at the top of the git dir
// that changes where git reads its config, and names it.
func removeGitPlanted(p *Project, had map[string]bool) []string {
	if p.GitDir == "" {
		return nil
	}
	var removed []string
	for _, n := range inPlaceGitPlanted {
		path := filepath.Join(p.GitDir, n)
		if _, err := os.Lstat(path); err != nil || had[n] {
			continue
		}
		if os.RemoveAll(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed
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
func (r *Run) policyDir() string {
	if !r.opts.InPlace {
		return r.dir
	}
	return r.ws.Shadow + ".policy" // made in openInPlace, removed with the shadow (removeShadow)
}
