package gitdir

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// Refs are the refs of the git dir gitDir and its common dir common, read
// from the files (loose over packed) with HEAD, name → id or "ref: target":
// what sentinel mcp compares before and after a command so that a branch
// or tag a command deleted or moved is named with how to put it back. A
// reftable repository gives only HEAD.
func Refs(gitDir, common string) map[string]string {
	out := map[string]string{}
	if b, err := readSmall(filepath.Join(gitDir, "HEAD")); err == nil {
		out["HEAD"] = strings.TrimSpace(string(b))
	}
	if b, err := readSmallN(filepath.Join(common, "packed-refs"), 256<<20); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if line == "" || line[0] == '#' || line[0] == '^' {
				continue
			}
			if id, name, ok := strings.Cut(strings.TrimSpace(line), " "); ok {
				out[name] = id
			}
		}
	}
	dirs := []string{common}
	if filepath.Clean(gitDir) != filepath.Clean(common) {
		dirs = append(dirs, gitDir)
	}
	for _, d := range dirs {
		root := filepath.Join(d, "refs")
		_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() || strings.HasSuffix(p, ".lock") || len(out) > 200000 {
				return nil
			}
			b, err := readSmall(p)
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(d, p)
			out[filepath.ToSlash(rel)] = strings.TrimSpace(string(b))
			return nil
		})
	}
	return out
}
