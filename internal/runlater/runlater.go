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
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// Max bounds how many paths Find returns; past it Find fails, and the
// caller must refuse to run rather than hold only some.
const Max = 2000

// Find walks root and returns every existing path below it that
// policy.RunsLater puts in the auto class: a matching directory whole (its
// content is not walked), a matching file itself. Git dirs (.git, any
// case) are left out: their own guard holds what of them must stay
// read-only, and committing needs the rest. skip, when not nil, leaves
// out a directory and what it holds (Sentinel's state, hidden paths).
// Symbolic links are left out: a mount cannot hold one, only what it
// names. An unreadable directory below root is passed over (the sandbox
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
		if d.IsDir() && (strings.EqualFold(d.Name(), ".git") || skip != nil && skip(path)) {
			return filepath.SkipDir
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
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
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
	return out, err
}
