// Package runlater finds, under a directory, the files and directories
// that run code later on the person's machine without anyone running them
// (policy/runlater.toml's auto class: .envrc, .vscode/, CI workflows, venv
// activate scripts, .cargo/config.toml…), so that a sandbox can hold the
// ones that exist read-only whatever program writes them, through options
// or code no policy can read (`python3 -c`, an unrestricted exec).
package runlater

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// Max bounds how many paths Find returns; past it Find fails, and the
// caller must refuse to run rather than hold only some.
const Max = 2000

// Find walks root and returns every existing path below it that
// policy.RunsLater puts in the auto class: a matching directory whole (its
// content is not walked), a matching file itself. Git dirs (.git, or a
// case variant where the file system folds case) are left out: their own
// guard holds what of them must stay read-only, and committing needs the
// rest. skip, when not nil, leaves
// out a directory and what it holds (Sentinel's state, hidden paths).
// A symbolic link under such a name is returned as itself (direnv, an
// editor and a shell follow it): a mount cannot hold a link, only what it
// names, so the caller holds its target (Target) and watches the link. An
// unreadable directory below root is passed over (the sandbox
// cannot show it either).
func Find(root string, skip func(path string) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil
		}
		if path == root {
			return nil
		}
		if d.IsDir() && (isGitDir(path, d.Name()) || skip != nil && skip(path)) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return nil
		}
		e, ok := policy.RunsLater(filepath.ToSlash(rel))
		if !ok || e.Class != policy.RunsUnasked {
			return nil
		}
		if len(out) >= Max {
			return fmt.Errorf("more than %d files that run code later under %s (the last: %s); give a narrower rw path", Max, root, path)
		}
		out = append(out, path)
		if d.IsDir() { // a link is not walked: WalkDir does not follow it
			return filepath.SkipDir
		}
		return nil
	})
	if err == nil {
		out = withEnvrcSources(root, out)
	}
	return out, err
}

// isGitDir says whether the directory path, named name, is its parent's
// git dir: .git, or a case variant of it on a file system that folds case
// (on one that does not, .GIT is an ordinary directory git never reads).
func isGitDir(path, name string) bool {
	if name == ".git" {
		return true
	}
	if !strings.EqualFold(name, ".git") {
		return false
	}
	a, err := os.Lstat(path)
	if err != nil {
		return true
	}
	b, err := os.Lstat(filepath.Join(filepath.Dir(path), ".git"))
	return err == nil && os.SameFile(a, b)
}

// Target is the file a path Find returned names when it is a symbolic
// link (resolved through every link on the way), and ok false when it is
// not a link or names nothing: what a sandbox must hold read-only for the
// link to keep running what it ran.
func Target(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	t, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	return t, true
}
